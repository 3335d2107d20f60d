"""Programs that must not outlive the server, even one killed with SIGKILL.

An adapter dies with the server (its parent-death signal), but a native or Go program the adapter
launched and traced is then merely detached, and runs on. So the server hands the pids of what
the adapter has started by the end of the handshake (the program, debugpy's launcher) to a small
guard process (`_orphan_guard.py`) over a pipe; when the pipe closes, on any exit of the server,
the guard kills those still running. The session looks again every few seconds and keeps the
guard's list equal to what runs below the adapter then: what the program starts later is added,
what has ended or left (a daemon that detached itself) is taken off, as `stop` would leave it. A
program that was attached to is never handed over: it was running before and must go on after.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import psutil

from . import processes
from ._orphan_guard import started

GUARD_EVERY = 2.0
"""Seconds between a session's looks at what runs below its adapter."""

_GUARD = Path(__file__).with_name("_orphan_guard.py")
_pipe: subprocess.Popen[bytes] | None = None


def start() -> None:
    """Start the guard now, so that its pipe is there from the server's first moment."""
    global _pipe
    if _pipe is None or _pipe.stdin is None or _pipe.stdin.closed:
        _pipe = subprocess.Popen([sys.executable, "-I", str(_GUARD)], stdin=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        _pipe.wait()  # it forks and leaves; the guard itself carries on with the pipe


def launched(adapter: psutil.Process) -> dict[int, str]:
    """What the adapter has started and still runs (the program, its children, debugpy's launcher):
    pid, start time. Nothing once the adapter is gone: its pid may name another process by then."""
    found = {}
    for process in processes.descendants(adapter.pid) if adapter.is_running() else ():
        if (since := started(process.pid)) is not None and process.is_running():  # still that process
            found[process.pid] = since
    return found if adapter.is_running() else {}


def watch(found: dict[int, str]) -> None:
    """Hand these processes (pid: start time) to the guard."""
    for pid, since in found.items():
        _send(f"+ {pid} {since}\n")


async def keep_guarding(adapter: psutil.Process, guarded: dict[int, str], alive: Callable[[], bool]) -> None:
    """Keep the guard's list, `guarded` (updated in place), equal to what runs below the adapter while
    `alive()`: what the program starts later is added a few seconds later at most, what has ended or
    detached itself is taken off."""
    while True:
        await asyncio.sleep(GUARD_EVERY)
        if not alive():
            return
        found = await asyncio.to_thread(launched, adapter)
        if not alive():  # ended meanwhile: the session forgets what is watched
            return
        forget(pid for pid, since in guarded.items() if found.get(pid) != since)
        watch({pid: since for pid, since in found.items() if guarded.get(pid) != since})
        guarded.clear()
        guarded.update(found)


def forget(pids: Iterable[int]) -> None:
    for pid in pids:
        _send(f"- {pid}\n")


def _send(line: str) -> None:
    if _pipe is None:
        start()
    assert _pipe is not None and _pipe.stdin is not None
    with contextlib.suppress(OSError, ValueError):  # a guard gone is only a lost safety net
        _pipe.stdin.write(line.encode())
        _pipe.stdin.flush()
