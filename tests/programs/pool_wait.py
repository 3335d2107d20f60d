"""A job run on a thread pool while the main thread waits for its result (blocked in lock.acquire)."""

import inspect
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

MAIN = threading.main_thread().ident
WAIT = threading.Condition.wait
lines, first = inspect.getsourcelines(WAIT)
BLOCKS = first + next(n for n, line in enumerate(lines) if line.strip() == "waiter.acquire()" and "None" in lines[n - 1])


def main_waits():
    """The main thread is on the line of `future.result()`'s Condition.wait that blocks in a lock's acquire."""
    frame = sys._current_frames().get(MAIN)
    return frame is not None and frame.f_code is WAIT.__code__ and frame.f_lineno == BLOCKS


def checksum(data):
    while not main_waits():  # the job goes on only once the main thread is blocked, so a stop finds it there
        time.sleep(0.01)
    time.sleep(0.05)  # from that line into the acquire itself
    total = sum(data)  # marker: job
    return total % 255


def main():
    with ThreadPoolExecutor(max_workers=2) as pool:
        future = pool.submit(checksum, bytes(range(100)))
        result = future.result()
    print("checksum", result)  # marker: report


main()
