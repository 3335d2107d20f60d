"""Child processes that never outlive the server and never touch its stdout.

On stdio the server's stdout is the MCP channel, so every child gets its own pipes.
Each child starts in its own process group and with a parent-death signal, so that even a
server killed with SIGKILL leaves nothing behind; `kill_tree` reaps a child and every
descendant it spawned (debugpy's launcher and debuggee, a compiler's subprocesses).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import subprocess
from collections.abc import Mapping, Sequence

import psutil

_PR_SET_PDEATHSIG = 1


def child_setup() -> None:  # runs in the child between fork and exec
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


async def spawn(
    argv: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    stdin: int = subprocess.PIPE,
    stdout: int = subprocess.PIPE,
    stderr: int = subprocess.PIPE,
) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *argv,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        env=dict(env) if env is not None else None,
        cwd=cwd,
        start_new_session=True,
        preexec_fn=child_setup,
    )


def descendants(pid: int) -> list[psutil.Process]:
    """Children of `pid`, and every process still in the session it leads: a grandchild whose
    parent already exited has been re-parented away, but it keeps the session id."""
    found: dict[int, psutil.Process] = {}
    with contextlib.suppress(psutil.Error):
        found = {p.pid: p for p in psutil.Process(pid).children(recursive=True)}
    for other in psutil.pids():
        if other == pid or other in found:
            continue
        with contextlib.suppress(OSError, psutil.Error):
            if os.getsid(other) == pid:
                found[other] = psutil.Process(other)
    return list(found.values())


async def kill_tree(proc: asyncio.subprocess.Process, *, grace: float = 1.0) -> None:
    """Terminate a child and all its descendants, killing whatever is left after `grace` seconds.

    The child itself is waited for through asyncio, which owns its exit status; the
    descendants are not our children, so psutil polls them.
    """
    others = descendants(proc.pid)
    for victim in others:
        with contextlib.suppress(psutil.Error):
            victim.terminate()
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), grace)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
    if others:
        _, still = await asyncio.to_thread(psutil.wait_procs, others, timeout=grace)
        for victim in still:
            with contextlib.suppress(psutil.Error):
                victim.kill()
        if still:
            await asyncio.to_thread(psutil.wait_procs, still, timeout=grace)


def pid_alive(pid: int) -> bool:
    try:
        proc = psutil.Process(pid)
        return proc.status() != psutil.STATUS_ZOMBIE
    except (psutil.Error, ValueError):  # ValueError: not a valid pid at all
        return False


def environ_with(extra: Mapping[str, str] | None) -> dict[str, str]:
    env = dict(os.environ)
    env.update(extra or {})
    return env


def own_family() -> set[int]:
    """This server, the processes it runs under and the ones it started: none of them may be debugged
    from here, since stopping one stops the debugger (or what talks to it)."""
    family = {os.getpid()}
    with contextlib.suppress(psutil.Error):
        me = psutil.Process()
        family |= {p.pid for p in me.parents()} | {p.pid for p in me.children(recursive=True)}
    return family
