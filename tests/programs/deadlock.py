"""Two threads that each hold one lock and wait for the other's (taken in opposite order): a deadlock.
The main thread waits for both in `join`. Every thread ends up blocked inside a C call (a lock's acquire),
where pydevd cannot suspend it."""

import threading

first = threading.Lock()
second = threading.Lock()
both_hold = threading.Barrier(2)


def transfer():
    with first:
        both_hold.wait()  # each holds its lock before either asks for the other's
        with second:  # marker: transfer waits
            print("transferred")


def refund():
    with second:
        both_hold.wait()
        with first:  # marker: refund waits
            print("refunded")


def main():
    workers = [threading.Thread(target=transfer, name="transfer"), threading.Thread(target=refund, name="refund")]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()  # marker: main joins


main()
