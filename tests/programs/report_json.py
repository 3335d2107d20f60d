"""Totals a few orders and writes them as JSON: a program with code of its own and a library call (json)."""

import json
import sys

ORDERS = [("apples", 3, 0.5), ("pears", 2, 0.75), ("figs", 12, 0.2)]


def line_total(qty, price):
    return round(qty * price, 2)  # marker: line_total


def report(orders):
    lines = []
    for name, qty, price in orders:
        lines.append({"item": name, "total": line_total(qty, price)})  # marker: loop
    return json.dumps({"lines": lines})  # marker: dumps


if __name__ == "__main__":
    print(report(ORDERS))  # marker: print
    sys.exit(0)
