"""The debuggee's processes as the operating system sees them: whether the program still runs, its pid where
the adapter does not say, and the child processes it started (which run without the debugger)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import psutil

from ... import processes

if TYPE_CHECKING:
    import asyncio

    from ...adapters import AdapterProfile, Target
    from .run import Run


class ProgramProcesses:
    def __init__(self, profile: AdapterProfile, target: Callable[[], Target], run: Run,
                 adapter: Callable[[], asyncio.subprocess.Process | None]) -> None:
        self._profile = profile
        self._target = target
        self._run = run
        self._adapter = adapter
        self._children_named: set[int] = set()
        """The program's child processes that a result has already named as running undebugged."""

    def runs(self) -> bool:
        """Whether the debuggee still runs, where that can be told (the program may print gdb's end text)."""
        if (pid := self._target().process_id) is not None:
            return processes.pid_alive(pid)
        adapter = self._adapter()
        if adapter is None or self._profile.program.inferior_depth is None:
            return False
        return bool(processes.running_below(adapter.pid, self._profile.program.inferior_depth))

    def pids(self) -> list[int]:
        """The launched program's process id: as the adapter names it, else found at `inferior_depth` below
        the adapter (the shallowest there: the program, not what it started)."""
        if pid := self._run.process.get("systemProcessId") or self._target().process_id:
            return [int(pid)]
        adapter = self._adapter()
        if adapter is None or self._profile.program.inferior_depth is None:
            return []
        below = processes.running_below(adapter.pid, self._profile.program.inferior_depth)
        pids = {p.pid for p in below}
        return [p.pid for p in below if _parent(p) not in pids]

    def new_children(self) -> list[str]:
        """The processes the program has started, not named before, as `pid (command)`: they run without the
        debugger (another adapter's, or Python's with `childProcesses: false`), so their breakpoints never stop."""
        found = []
        for pid in self.pids():
            with contextlib.suppress(psutil.Error):
                program = psutil.Process(pid)
                for child in program.children(recursive=True):
                    if child.pid not in self._children_named:
                        self._children_named.add(child.pid)
                        with contextlib.suppress(psutil.Error):
                            command = child.cmdline()
                            said = "the program again" if command == program.cmdline() else \
                                described(command, 100) or child.name()
                            found.append(f"{child.pid} ({said})")
        return found


_BOOTSTRAP = re.compile(r"-c import sys; sys\.path\.insert\(.*?pydevd\.settrace\(.*?__setup_holder__=.*?\}\); ")
"""What debugpy puts before the code of a child run as `python -c CODE` (its start-up, with its access tokens)."""


def described(command: list[str], limit: int) -> str:
    """A child's command line as the agent knows it: without debugpy's start-up put before a `-c`'s code,
    and multiprocessing's own processes named (debugpy's start-up stands in a spawned worker's command)."""
    words = _BOOTSTRAP.sub("-c ", " ".join(command))
    if "multiprocessing.resource_tracker" in words:
        return "multiprocessing resource tracker"
    if "--multiprocessing-fork" in command:
        return "multiprocessing worker"
    return words[:limit]


def _parent(process: psutil.Process) -> int | None:
    try:
        return process.ppid()
    except psutil.Error:
        return None
