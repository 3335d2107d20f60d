"""Logs a flood of lines with the standard library's logging, then stops; evaluations print, and a
helper process started with subprocess can keep writing to the same output while the program stops."""

import logging
import subprocess
import sys
import time

logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(levelname)s %(message)s")
log = logging.getLogger("chatty")
WRITER = ("import sys, time\nsys.stderr.write('writing\\n')\nsys.stderr.flush()\n"
          "for n in range(150):\n    print('helper', n, flush=True)\n    time.sleep(0.02)\n")


def announce(word: str) -> str:
    print(f"announcing {word}")
    return word.upper()


def shout(lines: int) -> int:
    for number in range(lines):
        print(f"shouting line {number} of {lines}, loud and long enough to take a while to forward")
    return lines


def flood(lines: int) -> int:
    for number in range(lines):
        log.info("line %d of the flood, with text enough to make the flood take the adapter a while", number)
    log.info("flood done")
    return lines  # marker: flooded


if sys.argv[1:] == ["helper"]:
    helper = subprocess.Popen([sys.executable, "-c", WRITER], stderr=subprocess.PIPE, text=True)
    helper.stderr.readline()  # it writes from now on (a child process may first wait for its debugger)
    time.sleep(0.5)
    log.info("the helper is writing")  # marker: helper
    helper.wait()
else:
    count = flood(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)
print("bye")
