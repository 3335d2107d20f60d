"""Threads blocked inside C calls while the main thread computes: one waits on an empty queue, one reads
a socket nothing writes to, one sleeps, and a thread pool's idle worker waits for work. A pause stops the
main thread; pydevd cannot suspend the others until their calls return, which they never do."""

import queue
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

jobs: queue.Queue[int] = queue.Queue()
reader, writer = socket.socketpair()


def consume():
    while True:
        job = jobs.get()  # marker: consume waits
        print("job", job)


def listen():
    while True:
        data = reader.recv(1024)  # marker: listen waits
        print("got", data)


def nap():
    time.sleep(3600)  # marker: nap sleeps


def main():
    for target in (consume, listen, nap):
        threading.Thread(target=target, name=target.__name__, daemon=True).start()
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pool")
    pool.submit(sum, range(10)).result()  # its worker now waits for the next job
    total = 0
    while True:
        total = (total + 1) % 1_000_003  # marker: main computes


main()
