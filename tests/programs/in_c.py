"""Spends nearly all its time inside single C calls that hold the GIL and logs when each began and
ended (the end stamped by the next line), in time.monotonic(), to the file named by its first
argument. The second says which call: `regex`, one that backtracks (user space all along), or
`sleep`, libc's usleep through ctypes.PyDLL (blocked in a system call, the GIL still held)."""
import ctypes
import re
import sys
import time

calls = {
    "regex": lambda: re.match(r"(a+)+$", "a" * 24 + "!"),
    "sleep": lambda: ctypes.PyDLL(None).usleep(400_000),
}
call = calls[sys.argv[2]]
with open(sys.argv[1], "a", buffering=1) as log:
    while True:
        began = time.monotonic()
        call()
        log.write(f"{began} {time.monotonic()}\n")
