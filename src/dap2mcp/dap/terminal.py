"""The `runInTerminal` reverse request: the adapter asks us to start the debuggee.

There is no terminal behind an MCP server, so the command runs with pipes; what it prints is
handed to a sink (the session's output buffer) instead of a terminal window.
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Callable
from typing import Any

from .. import processes

OutputSink = Callable[[str, str], None]  # (category, text)
ExitSink = Callable[[int, int], None]  # (pid, returncode: negative for a signal, as asyncio has it)
LAST_OUTPUT_WITHIN = 1.0
"""How long an ended program's last output is waited for before its end is told (a process it started may hold
its pipes)."""
TOLD_WITHIN = LAST_OUTPUT_WITHIN + 0.5
"""How long an ended program's end may take to be told: its last output first."""


class TerminalRunner:
    def __init__(self) -> None:
        self.sink: OutputSink = lambda category, text: None
        self.exited: ExitSink = lambda pid, returncode: None
        """Told when a program started here ends, once its output is in: where the adapter sends no `exited`
        event (js-debug), its status is the program's exit code."""
        self.processes: list[asyncio.subprocess.Process] = []
        self._pumps: list[asyncio.Task[None]] = []
        self._watches: list[asyncio.Task[None]] = []

    async def __call__(self, arguments: dict[str, Any]) -> dict[str, Any]:
        argv = arguments.get("args") or []
        if not argv:
            raise ValueError("runInTerminal without args")
        env = processes.environ_with(
            {k: v for k, v in (arguments.get("env") or {}).items() if v is not None}
        )
        for key, value in (arguments.get("env") or {}).items():
            if value is None:
                env.pop(key, None)
        try:
            proc = await processes.spawn(
                [str(a) for a in argv], env=env, cwd=arguments.get("cwd") or None, stdin=subprocess.DEVNULL
            )
        except OSError as exc:
            raise OSError(f"runInTerminal failed: {exc}") from exc
        self.processes.append(proc)
        assert proc.stdout is not None and proc.stderr is not None
        pumps = [asyncio.create_task(self._pump(proc.stdout, "stdout")), asyncio.create_task(self._pump(proc.stderr, "stderr"))]
        self._pumps += pumps
        self._watches.append(asyncio.create_task(self._watch(proc, pumps)))
        return {"processId": proc.pid}

    async def _watch(self, proc: asyncio.subprocess.Process, pumps: list[asyncio.Task[None]]) -> None:
        await proc.wait()
        await asyncio.wait(pumps, timeout=LAST_OUTPUT_WITHIN)  # its last lines first
        assert proc.returncode is not None
        self.exited(proc.pid, proc.returncode)

    async def _pump(self, stream: asyncio.StreamReader, category: str) -> None:
        while chunk := await stream.read(65536):
            self.sink(category, chunk.decode("utf-8", "replace"))

    @property
    def ending(self) -> bool:
        """A program started here runs still, or its end is not told yet: the adapter may say it ended before
        its process has."""
        return any(not watch.done() for watch in self._watches)

    async def ended(self, within: float) -> None:
        """Wait up to `within` seconds for the programs started here to end by themselves, and their ends told."""
        if self._watches:
            await asyncio.wait(self._watches, timeout=within)

    async def close(self) -> None:
        """The programs started here ended (killed where they run still), and their ends told all the same."""
        for proc in self.processes:
            await processes.kill_tree(proc)
        await self.ended(TOLD_WITHIN)
        for task in (*self._watches, *self._pumps):
            task.cancel()
