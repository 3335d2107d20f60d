"""Recurses without end: Python's stack overflow, a RecursionError."""


def down(n):
    return down(n + 1) + 1  # marker: recurse


down(0)
