"""Prints 100 MB and holds a list of ten million numbers: nothing of it may flood the agent or the server."""

import sys

chunk = "x" * 1_000_000
for _ in range(100):
    sys.stdout.write(chunk)
sys.stdout.write("\nflooded\n")
sys.stdout.flush()
numbers = list(range(10_000_000))
print(len(numbers))  # marker: held
