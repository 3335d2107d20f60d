"""A job run on a thread pool while the main thread waits for its result (blocked in lock.acquire)."""

from concurrent.futures import ThreadPoolExecutor


def checksum(data):
    total = sum(data)  # marker: job
    return total % 255


def main():
    with ThreadPoolExecutor(max_workers=2) as pool:
        future = pool.submit(checksum, bytes(range(100)))
        result = future.result()
    print("checksum", result)  # marker: report


main()
