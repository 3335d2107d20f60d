"""Sixty worker threads of a thread pool, all waiting, and the main thread stopped: more threads than
a context lists at once (tests/e2e/test_limits.py)."""

import threading
from concurrent.futures import ThreadPoolExecutor

WORKERS = 60


def main():
    started, release = threading.Barrier(WORKERS + 1), threading.Event()
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for _ in range(WORKERS):
            pool.submit(lambda: (started.wait(), release.wait()))
        started.wait()
        release.set()  # marker: crowded


main()
