"""A service that cleans up when asked to end: a SIGTERM handler and an exit handler, each writing to the
file named by its first argument. With a second argument 'stubborn' it ignores SIGTERM."""

import atexit
import signal
import sys
import time

LOG = sys.argv[1]


def note(text):
    with open(LOG, "a") as out:
        out.write(text + "\n")


def on_term(signum, frame):
    note("sigterm handler")
    sys.exit(3)


atexit.register(note, "atexit")
signal.signal(signal.SIGTERM, signal.SIG_IGN if sys.argv[2:] == ["stubborn"] else on_term)
beats = 0
while True:
    beats += 1  # marker: beat
    time.sleep(0.05)
