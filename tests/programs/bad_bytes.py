"""Writes a byte that is not UTF-8 to its stdout, then stops: every answer must still be valid."""

import sys

sys.stdout.write("before\n")
sys.stdout.flush()
sys.stdout.buffer.write(b"bad \xff byte\n")
sys.stdout.flush()
written = True  # marker: written
print("after", written)
