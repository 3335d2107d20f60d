"""An exception that goes uncaught out of a with block: its context manager has cleaned up by the stop."""

import contextlib


@contextlib.contextmanager
def opened(log):
    log.append("open")
    try:
        yield log
    finally:
        log.append("closed")
        print("cleanup ran")


def work(items):
    with opened([]) as log:  # noqa: F841  (read at the stop)
        total = sum(items)
        return total / 0  # marker: raise


work([1, 2])
