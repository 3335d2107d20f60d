"""A loop to target with conditions, hit counts and tracepoints; output to both streams."""

import sys


def work(i):
    value = i * i
    return value  # marker: work


def never():
    return "never called"  # marker: never


def main(rounds):
    total = 0
    for i in range(1, rounds + 1):
        total += work(i)  # marker: loop
    for n in range(3):
        print(f"out {n}", flush=True)
        print(f"err {n}", file=sys.stderr, flush=True)
    print("total", total)  # marker: end


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
