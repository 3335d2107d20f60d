"""Work done in a child process, as a server's reloader or a process pool does: the parent waits for it."""

import multiprocessing
import sys
import time


def work(seconds):
    done = seconds * 2  # marker: work
    time.sleep(seconds)
    return done


if __name__ == "__main__":
    child = multiprocessing.Process(target=work, args=(float(sys.argv[1]) if len(sys.argv) > 1 else 30.0,))
    child.start()
    print("started", child.pid, flush=True)  # marker: started
    child.join()
    print("joined", child.exitcode, flush=True)
