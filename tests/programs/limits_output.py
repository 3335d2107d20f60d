"""Numbered lines, more than a result's 8,000 characters of output: before a stop, from an evaluation,
and from a SIGTERM handler at the end (tests/e2e/test_limits.py)."""

import signal
import sys
import time


def shout(lines):
    """Prints `lines` numbered lines from an evaluation; returns how many."""
    for n in range(lines):
        print(f"shout {n:05d}")
    return lines


def main(lines):
    for n in range(lines):
        print(f"before {n:05d}")
    sys.stdout.flush()
    signal.signal(signal.SIGTERM, lambda *_: goodbye(lines))
    waiting = True  # marker: printed
    while waiting:
        time.sleep(0.1)


def goodbye(lines):
    """A graceful end that has a lot to say: `stop` with a signal shows the last of it."""
    for n in range(lines):
        print(f"bye {n:05d}")
    sys.exit(0)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
