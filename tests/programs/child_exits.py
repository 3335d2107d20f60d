"""Child processes that end each way a process can, started one after another by multiprocessing (argv[1]: its
start method, fork or spawn); the parent prints each one's pid and the exit code it saw (-15: SIGTERM)."""

import multiprocessing
import os
import signal
import sys
import time


def returns():
    pass


def exits():
    sys.exit(4)


def raises():
    raise ValueError("raised in the child")


def leaves():
    os._exit(6)


def killed():
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(30)


def main(method):
    context = multiprocessing.get_context(method)
    for work in (returns, exits, raises, leaves, killed):
        child = context.Process(target=work, name=work.__name__)
        child.start()
        child.join()
        print(work.__name__, child.pid, child.exitcode, flush=True)  # marker: saw


if __name__ == "__main__":
    main(sys.argv[1])
