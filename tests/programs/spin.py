"""Runs until killed: for timeout, pause and attach tests."""

import time


def tick(n):
    return n + 1  # marker: tick


def main():
    count = 0
    while True:
        count = tick(count)
        time.sleep(0.01)


if __name__ == "__main__":
    main()
