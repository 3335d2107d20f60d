"""Run by dap2mcp.reaper as its own process (stdlib only): the programs a server launched, killed
once the server is gone, however it went.

It leaves its parent at once (fork, parent exits), so it is nobody's child that a test or a
process tree would count. It reads lines from stdin, `+ PID START` to watch a process (START: its
start time in /proc, so a reused pid is never hit) or `- PID` to stop watching, until end of file,
which comes when the server exits or is killed. Then it kills whatever it still watches.
"""

import contextlib
import os
import signal
import sys


def started(pid: int) -> str | None:
    """The process's start time, from /proc: with the pid, it names one process and no later one."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def main() -> None:
    if os.fork():
        os._exit(0)
    watched: dict[int, str] = {}
    for line in sys.stdin:
        verb, pid, *start = line.split()
        if verb == "+" and start:
            watched[int(pid)] = start[0]
        elif verb == "-":
            watched.pop(int(pid), None)
    for pid, start in watched.items():
        if started(pid) == start:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
