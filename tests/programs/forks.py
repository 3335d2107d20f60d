"""A child Python process three ways, as argv[1] says: `fork` (os.fork), `subprocess` (the interpreter run
again on this file), `inline` (the interpreter run on a `-c` command), or `child` (what the subprocess runs)."""

import os
import subprocess
import sys


def child_work(label):
    doubled = len(label) * 2
    print("child", label, doubled, flush=True)  # marker: child
    return doubled


def main(how):
    if how == "child":
        child_work("from subprocess")
        return
    if how == "fork":
        pid = os.fork()
        if pid == 0:
            child_work("forked")
            os._exit(3)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
    elif how == "inline":  # a child with no file of its own: `python -c`
        code = subprocess.run([sys.executable, "-c", "print(2 + 3)"], check=False).returncode
    else:
        code = subprocess.run([sys.executable, __file__, "child"], check=False).returncode
    print("parent saw", code, flush=True)  # marker: parent


if __name__ == "__main__":
    main(sys.argv[1])
