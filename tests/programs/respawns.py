"""Runs this file again as a child Python process, one after another, as many times as argv[1] says (a test
runner's or a reloader's children over a program's life); each child works on its own number."""

import subprocess
import sys


def child(number):
    squared = number * number
    return squared  # marker: respawned


def main(times):
    codes = [subprocess.run([sys.executable, __file__, "child", str(n)], check=False).returncode for n in range(times)]
    print("children", len(codes), "failed", sum(1 for code in codes if code), flush=True)  # marker: done


if __name__ == "__main__":
    if sys.argv[1] == "child":
        child(int(sys.argv[2]))
    else:
        main(int(sys.argv[1]))
