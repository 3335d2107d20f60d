"""The program's exit code where the adapter's `exited` event does not bring it: a child process's, read from its
process once it ends (debugpy sends no `exited` on a child's connection, js-debug none at all), and the status of
the program dap2mcp started for the adapter (`runInTerminal`). One owner of whether the code is known, or still on
its way, which an answer at the program's end waits for a little.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable

from ...background import unlogged
from ...processes import exit_code, killed_by, open_pidfd
from .run import Run

WAITED_WITHIN = 3.0
"""How long an answer at a program's end waits for its exit code still on its way (a test run's verdict): the
adapter may report the end while the process is still closing (Jest's workers); past it, the answer says the code
is not yet known and `info sessions` shows it once it is."""


class ExitCode:
    def __init__(self, run: Run, program_ending: Callable[[], bool]) -> None:
        """`program_ending`: whether a program the session had dap2mcp start is still running, or its end not yet
        told (`Link.program_ending`)."""
        self._run = run
        self._program_ending = program_ending
        self._known = asyncio.Event()
        self._watch: asyncio.Future[None] | None = None
        self.from_launcher = False
        """The program's end comes from another session's launch (`DebugSession.share_program`)."""

    def watch(self, pid: int) -> None:
        """Learn the exit code of the program's process `pid`, which no adapter reports and whose parent reaps it:
        a pidfd opened now, while the process is known to live (a child is held until its session is configured),
        says when it ends, and `processes.exit_code` what it ended with. Nothing is put into the program's code."""
        if (pidfd := open_pidfd(pid)) is None:
            return
        loop = asyncio.get_running_loop()
        self._watch = unlogged(asyncio.ensure_future(self._read(pidfd, pid)))
        self._watch.add_done_callback(lambda _: (loop.remove_reader(pidfd), os.close(pidfd)))  # cancelled too

    async def _read(self, pidfd: int, pid: int) -> None:
        loop = asyncio.get_running_loop()
        gone = loop.create_future()
        loop.add_reader(pidfd, lambda: gone.done() or gone.set_result(None))  # readable once the process ended
        await gone
        if (code := exit_code(pidfd, pid)) is not None and self._run.exit_code is None:
            self._run.exit_printed(code)
        self._known.set()

    def watch_adapter(self, process: asyncio.subprocess.Process) -> None:
        """Learn the exit code from the adapter's own process, which is the program's (`ProgramRules.adapter_is_program`:
        rdbg runs in the program it debugs, and sends no `exited` event)."""
        async def ended() -> None:
            self.terminal_exited(await process.wait())
        self._watch = unlogged(asyncio.ensure_future(ended()))

    def terminal_exited(self, returncode: int) -> None:
        """The program started through `runInTerminal` ended with `returncode` (negative: killed by that signal,
        as asyncio has it): its status is the exit code where the adapter sends no `exited` event (js-debug)."""
        if self._run.exit_code is None:
            self._run.exit_printed(returncode if returncode >= 0 else killed_by(-returncode))
        self._known.set()

    @property
    def coming(self) -> bool:
        """The program's end was reported but its exit code is still on its way: the process it is read from has
        not ended yet (a child's interpreter still shutting down after its debugger's connection closed), or its
        launcher has not seen it end. Not known yet, rather than unreadable: `info sessions` shows it once known."""
        if self._run.exit_code is not None:
            return False
        watching = self._watch is not None and not self._watch.done()
        return watching or self._program_ending() or (self.from_launcher and not self._known.is_set())

    async def waited(self) -> None:
        """At the program's end, its exit code, for up to `WAITED_WITHIN` seconds where it is still coming."""
        if self._run.state == "terminated" and self.coming:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._known.wait(), WAITED_WITHIN)

    def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
