"""Output each way a program may handle it: lines printed one step at a time, a child process whose stdout and
stderr the program reads apart, and the program's own stdout caught through a pipe of its own (as wurlitzer
catches a C library's output) and printed after."""

import os
import subprocess
import sys
import threading


def child_streams():
    done = subprocess.run([sys.executable, "-c", "import sys; print('out'); print('err', file=sys.stderr)"],
                          capture_output=True, text=True)
    print("child stdout", repr(done.stdout), "child stderr", repr(done.stderr))


def caught():
    read_end, write_end = os.pipe()
    saved = os.dup(1)
    os.dup2(write_end, 1)
    os.close(write_end)
    chunks = []
    reader = threading.Thread(target=lambda: chunks.extend(iter(lambda: os.read(read_end, 4096), b"")))
    reader.start()
    os.write(1, b"inside\n")
    os.dup2(saved, 1)  # marker: catching
    reader.join()
    print("caught", repr(b"".join(chunks)))


if __name__ == "__main__":
    print("first", flush=True)  # marker: first
    print("second", flush=True)
    child_streams()
    caught()
