"""The client of serves.py: fetches a page from the URL it is given and looks at the answer."""

import sys
import urllib.request


def fetch(url):
    with urllib.request.urlopen(url, timeout=60) as answer:
        body = answer.read()
    status = answer.status
    return status, body  # marker: answered


print(fetch(sys.argv[1]))
