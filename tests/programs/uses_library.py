"""Calls into the standard library as real code does: json parses, logging writes, sorted calls back."""

import json
import logging
import sys

log = logging.getLogger("shop")


def by_price(item):
    return item["price"]  # marker: key


def parse(text):
    data = json.loads(text)  # marker: loads
    return data  # marker: parsed


def main():
    logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(levelname)s %(message)s")
    data = parse('{"items": [{"price": 3}, {"price": 1}, {"price": 2}]}')  # marker: parse
    cheapest = sorted(data["items"], key=by_price)  # marker: sort
    log.info("parsed %d items", len(cheapest))  # marker: log
    print("cheapest", cheapest[0]["price"])  # marker: print


main()
