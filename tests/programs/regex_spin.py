"""Spends nearly all its time inside single C calls that hold the GIL (a regex that backtracks) and
logs when each began and ended (the end stamped by the next line), in time.monotonic(), to the file
named by its argument."""
import re
import sys
import time

with open(sys.argv[1], "a", buffering=1) as log:
    while True:
        began = time.monotonic()
        re.match(r"(a+)+$", "a" * 24 + "!")
        log.write(f"{began} {time.monotonic()}\n")
