"""Whether the program's output is all in: what it wrote before it stopped, or what an evaluation printed, reaches
dap2mcp after the answer that says it stopped or evaluated (see marks.py for why). One owner for the marks written
into the program's output, for what the last mark showed, and for the judging by pauses where no mark can be
written.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ...adapters.base import OutputRules
from ...errors import Failure
from ...processes import bytes_written, has_children, unread_in_pipes
from ..program.run import Run
from .buffer import OutputBuffer
from .marks import Marks

SETTLES = 1.0
"""How long a stop's answer waits for the output the program wrote before it stopped (see
`OutputBuffer.settle`); past that the answer says its output is `incomplete`."""
MARKS_BACK = 3.0
"""How long an evaluation's answer waits for the marks written after it: output known to be still on its way is
worth a longer wait than a pause that may be its end."""
MARK_TIMEOUT = 1.0
"""How long the evaluation that writes a mark may take (it never blocks on a full pipe): past it, the answer
judges its output by pauses."""


class MarkEvaluator(Protocol):
    async def evaluate(self, expression: str, frame_id: int, context: str | None = None,
                       timeout: float = 10.0) -> tuple[dict[str, Any], str | None]: ...


class OutputAllIn:
    def __init__(self, output: Callable[[], OutputBuffer], run: Run, rules: OutputRules,
                 own: MarkEvaluator) -> None:
        """`output`: the session's buffer (the launcher's, where the session shares its program's); `own`: evaluates
        the mark's writing in the program."""
        self._buffer = output
        self._run = run
        self._rules = rules
        self._own = own
        self._marks = Marks()
        self.writes_marks = False
        """Whether marks may be written into the program's output: only into a program launched here, whose pipe
        the adapter reads (a child process's output comes through its parent's session); set once it started."""
        self._known_in: tuple[int, int, int | None] | None = None
        """The stop count, the output's size and the program's count of bytes written when a mark last showed
        the output all in."""

    def take_out(self, category: str, text: str) -> tuple[str, bool]:
        """`text` without the marks in it, and whether one came back (what came before it is all in)."""
        if not self.writes_marks or category not in ("stdout", "stderr"):
            return text, False
        return self._marks.take_out(category, text)

    async def stopped(self, frame: int | Callable[[], Awaitable[int]]) -> tuple[bool, bool]:
        """Wait for the output the program wrote so far (before it stopped, or before an evaluation): whether it is
        all in, and whether that is known, by a mark written behind it (what comes after the mark was written after
        it, by another process), or judged by a pause (`OutputBuffer.settle`). `frame`: where to write the mark, or
        how to find it (the stop's focused frame), asked only where a mark is written."""
        if self.nothing_written():
            return True, True
        if self.writes_marks:
            with contextlib.suppress(Failure):
                at = frame if isinstance(frame, int) else await frame()
                if (marked := await self._marked(at, SETTLES)) is not None:
                    return marked, marked
        return await self._buffer().settle(SETTLES), False

    async def printed(self, frame: int) -> bool:
        """Wait for what an evaluation printed, which comes after its answer: whether it is all in. Known by marks
        where they can be written; else judged by pauses: most evaluations print nothing or a line, and pay 15 ms; a
        flood is waited for until it ends; output that goes on past a pause in it (another process writing to the
        program's output) is not the evaluation's alone."""
        if self.nothing_written():
            return True
        if (marked := await self._marked(frame, MARKS_BACK)) is not None:
            return marked
        return await self._buffer().quiet(0.015, 0.1) or await self._buffer().settle(SETTLES, surely=True)

    def from_elsewhere(self) -> bool:
        """Output came after marks showed it all in at this stop, while the program stood still: another process
        (a child, a helper it started) writes to the program's output."""
        return self._known_in is not None and self._known_in[0] == self._run.stop_count \
            and self._known_in[1] != self._buffer().size

    def nothing_written(self) -> bool:
        """The program has written nothing since a mark last showed its output all in: its count of bytes
        written is the same, nothing waits in its pipes (a write still going on, or one `splice` made, which
        the count misses), and it has no child process (whose writes it does not count). Then its output is
        all in still, with no mark to write."""
        pid = self._pid()
        if self._known_in is None or pid is None or (written := bytes_written(pid)) is None \
                or written != self._known_in[2] or unread_in_pipes(pid) != 0 or has_children(pid):
            return False
        self._known_in = (self._run.stop_count, self._buffer().size, written)
        return True

    def known_in_now(self, written: int | None) -> None:
        """As a mark that just came back leaves it: the output all in at this stop, the program having written
        `written` bytes."""
        self._known_in = (self._run.stop_count, self._buffer().size, written)

    async def _marked(self, frame: int, most: float) -> bool | None:
        """Whether what the program wrote so far is all in, known by a mark written after it into its output and
        waited for up to `most` seconds (or until the session ends or stops again); None where none was written
        (see `writes_marks`; output that is not the adapter's pipe, such as pytest's capture, or a pipe too full
        to take it): the caller judges by pauses instead."""
        if not self.writes_marks or self._run.state != "paused":
            return None
        assert self._rules.output_mark is not None
        mark = self._marks.new((1, 2))
        self._known_in = None  # until this mark is back
        try:
            try:
                body, _ = await self._own.evaluate(self._rules.output_mark.format(mark=repr(mark.template)), frame,
                                                   timeout=MARK_TIMEOUT)
            except Failure:  # it may still run, and its mark come: taken out then
                return None
            result = str(body.get("result") or "")
            written = {mark.back[fd] for fd in mark.back if result == str(fd)}
            self._marks.not_written(mark, [fd for fd in mark.back if result != str(fd)])
            if not written:
                return None
            if await self._back(written, most):
                pid = self._pid()
                self.known_in_now(bytes_written(pid) if pid is not None else None)  # past the mark's bytes
                return True
            return False
        finally:
            self._marks.forget(mark)

    async def _back(self, marks: set[asyncio.Future[None]], most: float) -> bool:
        """Wait until `marks` are back, at most `most` seconds, or until the program moves on (a stop, its end,
        a call ending it): whether they are."""
        loop = asyncio.get_running_loop()
        deadline, stops = loop.time() + most, self._run.stop_count
        while marks and self._run.stop_count == stops and self._run.state == "paused" and self._run.ended_by is None \
                and (left := deadline - loop.time()) > 0:
            moved = asyncio.ensure_future(self._run.changed(left))
            done, _ = await asyncio.wait({*marks, moved}, timeout=left, return_when=asyncio.FIRST_COMPLETED)
            moved.cancel()
            marks -= done
        return not marks

    def _pid(self) -> int | None:
        pid = self._run.process.get("systemProcessId")
        return pid if isinstance(pid, int) else None
