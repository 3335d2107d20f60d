"""A second thread waits in a function of its own while the main thread stops."""

import threading
import time


def waiter():
    while True:
        time.sleep(0.05)  # marker: waiter


def main():
    threading.Thread(target=waiter, name="waiter", daemon=True).start()
    time.sleep(0.2)
    x = 1  # marker: main
    return x


main()
