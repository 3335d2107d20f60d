"""Sleeps in long naps: a pause cannot stop a Python thread inside `time.sleep`, only when the nap ends."""
import sys
import time


def nap(seconds):
    rounds = 0
    print("napping", flush=True)
    while True:
        time.sleep(seconds)
        rounds += 1  # marker: woken


nap(float(sys.argv[1]) if len(sys.argv) > 1 else 4.0)
