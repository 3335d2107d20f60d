"""Starts as many child Python processes at once as argv[1] says, each this file again, and waits for them all
(a test runner's workers running side by side); each child says it passed its marker line."""

import subprocess
import sys


def child(number):
    held = number  # marker: held
    print("passed", held, flush=True)


def main(count):
    started = [subprocess.Popen([sys.executable, __file__, "child", str(n)]) for n in range(count)]
    codes = [process.wait() for process in started]
    print("children", len(codes), "failed", sum(1 for code in codes if code), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "child":
        child(int(sys.argv[2]))
    else:
        main(int(sys.argv[1]))
