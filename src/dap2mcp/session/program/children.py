"""A child process of the program, as a session of its own.

An adapter that follows children (`AdapterProfile.program.follows_children`) announces each with the reverse
request `startDebugging`: a configuration to start a session with, over a new connection to the same
adapter. debugpy names where to connect (`connect`) and holds the child until that session's
`configurationDone`, so a breakpoint in the child is never run past; js-debug names nowhere, and the
address of the first connection serves. The child's session carries its parent's breakpoints.

A child that is not to be debugged (`childProcesses: false`, or more children than `MAX_CHILDREN`) is
still connected to, and let go at once: debugpy's child waits for a connection for ever.
"""

from __future__ import annotations

import contextlib
import functools
import re
from dataclasses import replace
from typing import Any

import psutil

from ... import processes
from ...adapters import AdapterStart
from ..session import DebugSession
from .program import described

MAX_CHILDREN = 16
"""Child sessions running at once under one `debug` (a process pool's workers); more run undebugged. As many
ended ones are listed, the oldest forgotten first."""
COMMAND_CHARS = 120


def plan(parent: DebugSession, arguments: dict[str, Any]) -> AdapterStart | None:
    """How to reach the adapter for the child `arguments` announce (None: nowhere to connect to)."""
    configuration = dict(arguments.get("configuration") or {})
    request = arguments.get("request") or configuration.get("request")
    connect = configuration.get("connect")
    if isinstance(connect, dict) and connect.get("port"):
        address: tuple[str, int] | None = (str(connect.get("host") or "127.0.0.1"), int(connect["port"]))
    else:
        address = parent.link.address
    if address is None:
        return None
    return AdapterStart([], "launch" if request == "launch" else "attach", configuration, address=address)


def session(parent: DebugSession, reach: AdapterStart, session_id: str, *, debugged: bool) -> DebugSession:
    """The child's session, not started: with the parent's breakpoints where it is `debugged`."""
    # the program attached to is named before js-debug knows its pid (`Remote Process [0]`): its target's pid serves
    pid = parent.target.process_id if is_program(parent) and not parent.launched else _pid(reach.arguments)
    # the program a launcher started holds its entry stop (`Target.entry_line`); a child process of it does not
    target = replace(parent.target, mode="attach", process_id=pid,
                     stop_on_entry=parent.target.stop_on_entry and is_program(parent) and parent.launched)
    # a child that runs a program anew (a Django reloader's server, a spawned worker) reads the files as they are
    # now, and its breakpoints follow the edits made since they were set; a fork runs the code its parent loaded
    rereads = parent.rereads and target.process_id is not None and processes.exec_after_fork(target.process_id)
    child = DebugSession(target, parent.profile, carried=parent.breakpoints.all() if debugged else None,
                         limits=parent.limits, session_id=session_id, parent_id=parent.id, rereads=rereads)
    child.breakpoints.count_with(parent.breakpoints)
    child.reach(reach, parent.runtime)
    if is_program(parent):
        child.share_program(parent)
    elif debugged and target.process_id is not None:
        child.exits.watch(target.process_id)
    return child


def is_program(parent: DebugSession) -> bool:
    """Whether the child `parent`'s adapter announces next is the program itself, which `parent` only
    launched (see `AdapterProfile.program.program_in_child`): debugged whatever `childProcesses` says."""
    return parent.profile.program.program_in_child and parent.parent_id is None and not parent.sharers


def launcher_of(session: DebugSession) -> DebugSession:
    """The session whose `stop` or `restart` ends or restarts `session`'s program: its launcher's, where
    `session` is the program a launcher started (see `AdapterProfile.program.program_in_child`); else itself."""
    return session.launcher if session.launcher is not None else session


def _pid(configuration: dict[str, Any]) -> int | None:
    """The child's process id: debugpy's `subProcessId`, or the `[pid]` that ends js-debug's name for it."""
    if isinstance(pid := configuration.get("subProcessId"), int):
        return pid
    named = re.search(r"\[(\d+)\]$", str(configuration.get("name") or ""))
    return int(named.group(1)) or None if named else None


def program(session: DebugSession) -> str:
    """What the agent calls a session's program: a child's as its adapter names it (`worker.py`), or its
    command line where that name is only an option (`-c` for a multiprocessing worker started by spawn)."""
    if session.parent_id is None:
        return session.target.name
    if session.launcher is not None:
        return session.launcher.target.name
    name = str(session.run.process.get("name") or "")
    if name and not name.startswith("-"):
        return name
    pid = session.run.process.get("systemProcessId") or session.target.process_id
    if pid is None and session.sources.first_loaded is not None:  # a worker thread (js-debug: `[worker 1]`)
        return f"{session.sources.first_loaded} {name}".strip()
    with contextlib.suppress(psutil.Error, TypeError, ValueError):
        return _command(int(pid))
    return name or f"process {pid}"


@functools.lru_cache(maxsize=256)
def _command(pid: int) -> str:
    """A child's command line, read once (it is gone with the process), or what it is where it is only
    multiprocessing's (debugpy's own start-up code stands in it for a worker started by spawn)."""
    return described(psutil.Process(pid).cmdline(), COMMAND_CHARS)
