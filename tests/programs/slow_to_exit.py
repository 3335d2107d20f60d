"""A child process that takes its time to end: its code returns, and while the interpreter shuts down (after
the debugger's connection has closed) a global's finalizer sleeps argv[2] seconds, then exits with code 3.
argv[1]: `parent` runs the child with `subprocess` and prints the code it saw; `child` is the child."""

import os
import subprocess
import sys
import time


class Lingers:
    def __del__(self):
        time.sleep(float(sys.argv[2]))
        os._exit(3)


def main(how, seconds):
    if how == "child":
        global kept
        kept = Lingers()  # finalized at the interpreter's shutdown, not when main returns
        print("child done", flush=True)  # marker: child
        return
    code = subprocess.run([sys.executable, __file__, "child", seconds], check=False).returncode
    print("parent saw", code, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
