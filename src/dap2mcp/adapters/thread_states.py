"""Where each thread of a live process is, read from outside its debug adapter: the shapes a profile
answers in (`AdapterProfile.running_threads`), and the kernel's word on whether a thread is blocked.

A debugger inside the process (pydevd) suspends a thread only between two lines of its code: a thread
blocked inside a call into C (a lock's acquire, a sleep, a socket's recv) never gets there, so the
debugger can neither stop it nor say that it is stuck. The kernel can: such a thread sleeps in a system
call and uses no CPU. Linux only (/proc); the system call names are x86-64's, as the injector is.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

ThreadState = Literal["stopped", "blocked", "running"]


@dataclass(frozen=True)
class StackLine:
    """A frame read from outside the debugger: no id, nothing to inspect."""

    function: str
    file: str | None
    line: int | None
    code: str | None = None
    """The source line's text, as the process reads its file."""


@dataclass(frozen=True)
class ThreadReport:
    """One thread of the process and its innermost frames."""

    name: str
    ident: int
    """The runtime's own number for it (Python's `threading.get_ident()`)."""
    dap_id: int | None
    """The adapter's id for it, where the process could tell (the one `context {threadId}` takes)."""
    state: ThreadState
    """`stopped`: the debugger holds it; `blocked`: asleep in a system call and using no CPU; else `running`."""
    frames: tuple[StackLine, ...]
    total_frames: int
    waiting_in: str | None = None
    """For a blocked thread: the system call it sleeps in, in words."""
    timed: bool = False
    """For a blocked thread: the call ends by itself after a while (a sleep, a wait with a timeout, a server's
    `select` that wakes to check for shutdown), so the thread runs again without help."""


@dataclass(frozen=True)
class Wait:
    """What a blocked thread sleeps in."""

    words: str | None
    timed: bool


SYSCALLS: dict[int, tuple[str, int | None]] = {
    0: ("read", None), 7: ("poll", 2), 23: ("select", 4), 34: ("pause", None), 35: ("nanosleep", 0),
    43: ("accept", None), 45: ("recvfrom", None), 47: ("recvmsg", None), 61: ("wait4", None),
    128: ("rt_sigtimedwait", 2), 202: ("futex", 3), 219: ("restart_syscall", None), 230: ("clock_nanosleep", 2), 232: ("epoll_wait", 3),
    247: ("waitid", None), 270: ("pselect6", 4), 271: ("ppoll", 2), 281: ("epoll_pwait", 3), 288: ("accept4", None),
}
"""x86-64 system call numbers a thread waits in: the name, and which argument is its timeout (a pointer, or
poll's and epoll's milliseconds, where -1 is none). A timed wait that a signal or a ptrace stop (the
injector's) interrupted goes on as `restart_syscall`, its timeout kept by the kernel."""
WAITS = {
    "futex": "a lock, a condition or a queue (futex)", "read": "a read (read)", "recvfrom": "a socket's recv (recvfrom)",
    "recvmsg": "a socket's recv (recvmsg)", "accept": "a socket's accept", "accept4": "a socket's accept",
    "nanosleep": "a sleep (nanosleep)", "clock_nanosleep": "a sleep (clock_nanosleep)", "wait4": "a child process (wait4)",
    "waitid": "a child process (waitid)", "restart_syscall": "a wait with a timeout (restart_syscall)",
}
SAMPLE_GAP = 0.05
"""Seconds between the two looks at each thread: one that uses no CPU over them is blocked."""


@dataclass(frozen=True)
class _Look:
    asleep: bool
    cpu: int
    wait: Wait


def blocked_threads(pid: int, tids: list[int]) -> dict[int, Wait]:
    """Of the kernel threads `tids` of `pid`, those asleep in a system call and using no CPU across two
    looks `SAMPLE_GAP` apart, each with what it waits in. A thread that only waits for the GIL now and
    then, or sleeps in short naps, runs in between."""
    first = {tid: _look(pid, tid) for tid in tids}
    time.sleep(SAMPLE_GAP)
    found: dict[int, Wait] = {}
    for tid, before in first.items():
        after = _look(pid, tid)
        if before is not None and after is not None and before.asleep and after.asleep and before.cpu == after.cpu:
            found[tid] = after.wait
    return found


def _look(pid: int, tid: int) -> _Look | None:
    """A thread's scheduling state, CPU time (ns where the kernel counts it so, else clock ticks) and the
    system call it is in; None once it is gone."""
    task = Path(f"/proc/{pid}/task/{tid}")
    try:
        stat = (task / "stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()  # the name, in parentheses, may hold spaces
    cpu = int(fields[11]) + int(fields[12])  # utime + stime
    with contextlib.suppress(OSError, ValueError, IndexError):
        cpu = int((task / "schedstat").read_text().split()[0])
    wait = Wait(None, timed=False)
    with contextlib.suppress(OSError, ValueError, IndexError):  # readable with ptrace's permission ("running" else)
        wait = _wait(*(task / "syscall").read_text().split())
    return _Look(asleep=fields[0] in ("S", "D"), cpu=cpu, wait=wait)


def _wait(number: str, *args: str) -> Wait:
    """A system call as /proc/PID/task/TID/syscall gives it (its number, then its arguments in hex)."""
    name, timeout = SYSCALLS.get(int(number), (f"#{number}", None))
    timed = timeout is not None and int(args[timeout], 16) not in (0, 2**64 - 1, 2**32 - 1)  # none, or -1
    words = WAITS.get(name, f"a system call ({name})")
    return Wait(f"{words}, with a timeout" if timed and name in ("futex", "poll", "select", "epoll_wait") else words,
                timed=timed or name in ("nanosleep", "clock_nanosleep", "restart_syscall"))
