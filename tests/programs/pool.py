"""Squares numbers in a process pool: the work happens in child processes (spawn or fork, as argv[1] says)."""

import multiprocessing
import os
import sys


def square(n):
    result = n * n
    return result  # marker: worker


def main(method):
    context = multiprocessing.get_context(method)
    with context.Pool(2) as pool:
        squares = pool.map(square, [1, 2, 3])
    total = sum(squares)
    print("total", total, "parent", os.getpid())  # marker: total
    return total


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "spawn")
