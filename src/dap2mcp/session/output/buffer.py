"""The debuggee's output, in arrival order, bounded, with a cursor for "since the last result".

Adapters forward the program's output from another thread than their events (debugpy reads the
program's pipe in its launcher), so at a stop, text the program wrote before it stopped may still be
on its way, and an evaluation's printing comes after its answer: `settle` waits for it, within a bound,
and says whether it is all in.
"""

from __future__ import annotations

import asyncio
import re

from ..models import Output

IGNORED_CATEGORIES = frozenset({"telemetry"})
BURST_ENDS = 0.5
"""Seconds without output that end a burst of it (a flood, or the prints of one step)."""
FLOOD_CHARS = 100_000
"""Output since the last result past which it is a flood (see `settle`)."""
STILL = 0.4
"""How long more output shows that a flood, or something else, still writes (see `settle`): longer than the
0.3 s a forwarder pauses on a busy machine (0.1 s let 2,000 lines an evaluation printed pass for all in at 1,697)."""
SETTLE_PAUSE = (0.03, 0.5)
"""How long no output must have come for it to count as all in: twice the longest gap seen within the
burst, within these bounds (a flood forwarded by debugpy on a busy machine pauses for up to 0.3 s)."""


class OutputBuffer:
    def __init__(self, keep_chars: int = 1_000_000) -> None:
        self._keep = keep_chars
        self._chunks: list[str] = []
        self._start = 0  # absolute offset of the first kept character
        self._end = 0  # absolute offset after the last character
        self._mark = 0
        self._taken: list[tuple[int, int]] = []  # ranges past the mark already shown (an evaluation's printing)
        self._arrived = 0.0  # the event loop's time of the last text
        self._burst_gap = 0.0  # the longest wait between two texts of the current burst
        self._burst_shown = False
        """A result has shown the output since its last text: the next text starts a burst of its own. The
        wait before it (dap2mcp's own settling, the agent's turn, a paused program) is no pause of the
        program's output, and counted as one it made every next answer wait longer, up to the cap."""

    def append(self, category: str, text: str) -> None:
        if category in IGNORED_CATEGORIES or not text:
            return
        self._chunks.append(text)
        self._end += len(text)
        now = asyncio.get_running_loop().time()
        gap = now - self._arrived
        self._burst_gap = 0.0 if gap > BURST_ENDS or self._burst_shown else max(self._burst_gap, gap)
        self._arrived, self._burst_shown = now, False
        if self._end - self._start > self._keep * 2:
            joined = "".join(self._chunks)[-self._keep :]
            self._chunks = [joined]
            self._start = self._end - len(joined)

    @property
    def size(self) -> int:
        return self._end

    async def quiet(self, pause: float, most: float, *, already: bool = False) -> bool:
        """Wait until no output has come for `pause` seconds, at most `most`: whether it went quiet.
        With `already`, output that stopped coming `pause` ago counts as quiet at once; otherwise the
        wait is at least `pause` (for output the adapter has yet to send, as after an evaluation)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + most
        since = 0.0 if already else loop.time()
        while (left := max(self._arrived, since) + pause - loop.time()) > 0:
            if loop.time() + left > deadline:
                await asyncio.sleep(max(0.0, deadline - loop.time()))
                return max(self._arrived, since) + pause <= loop.time()
            await asyncio.sleep(left)
        return True

    async def settle(self, most: float, *, surely: bool = False) -> bool:
        """Wait, at most `most` seconds, until the output the program wrote so far is in, where some
        came just now: whether it is (no wait when the last came longer ago than its burst pauses). A
        flood is in only when nothing more comes `STILL` after it seemed to end: a forwarder that pauses
        mid-flood (debugpy's launcher, on a busy machine) pauses longer than any gap seen before. `surely`:
        so is any output (an evaluation's printing, which another process's writing must not pass for)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + most
        while await self.quiet(self.settle_pause, max(0.0, deadline - loop.time()), already=True):
            if not surely and self._end - self._mark < FLOOD_CHARS:
                return True
            ended_at = self._end
            await asyncio.sleep(min(STILL, max(0.0, deadline - loop.time())))
            if self._end == ended_at:
                return True
            if loop.time() >= deadline:
                return False
        return False

    @property
    def settle_pause(self) -> float:
        """How long no output must have come for it to count as all in (see SETTLE_PAUSE)."""
        low, high = SETTLE_PAUSE
        return min(max(2 * self._burst_gap, low), high)

    def read(self, start: int, limit: int) -> Output:
        """Text from absolute offset `start`, at most the last `limit` characters of it."""
        text = "".join(self._chunks)
        begin = max(start, self._start)
        piece = text[begin - self._start :]
        truncated = begin > start
        if len(piece) > limit:
            piece = piece[-limit:]
            truncated = True
        return Output(text=piece, truncated=truncated)

    def page(self, offset: int, limit: int) -> dict[str, object]:
        """Up to `limit` characters from absolute `offset`, for reading the whole output in pages."""
        begin = min(max(offset, self._start), self._end)
        text = "".join(self._chunks)[begin - self._start: begin - self._start + limit]
        out: dict[str, object] = {"text": text, "offset": begin, "nextOffset": begin + len(text), "end": self._end}
        if begin > offset:
            out["dropped"] = begin - offset  # older output went to stay within the bound
        return out

    def peek_new(self, limit: int) -> Output:
        return self._since_mark(limit)

    def take_new(self, limit: int) -> Output:
        out = self._since_mark(limit)
        self._mark, self._taken, self._burst_shown = self._end, [], True
        return out

    def take_from(self, start: int, limit: int) -> Output:
        """What came from absolute offset `start` (an evaluation's printing): shown now, so not again
        with what came since the last result."""
        out = self.read(start, limit)
        if self._end > start:
            self._taken.append((max(start, self._mark), self._end))
        self._burst_shown = True
        return out

    def _since_mark(self, limit: int) -> Output:
        if not self._taken:
            return self.read(self._mark, limit)
        text, at = "".join(self._chunks), self._mark
        pieces = []
        for begin, end in [*self._taken, (self._end, self._end)]:
            if begin > at:
                pieces.append(text[max(at, self._start) - self._start: max(begin, self._start) - self._start])
            at = max(at, end)
        shown = "".join(pieces)
        return Output(text=shown[-limit:], truncated=len(shown) > limit or self._mark < self._start)

class TracebackCutter:
    """Cuts the launcher's entries from the tracebacks a program prints (`AdapterProfile.output.launcher_frames`):
    an entry is its `File` line and the indented source lines below it. Output events split lines anywhere,
    so inside a traceback a line is held back until its end comes (a traceback's lines come whole soon)."""

    HEADER = "Traceback (most recent call last):"

    def __init__(self, launcher_frames: re.Pattern[str] | None) -> None:
        self._pattern = launcher_frames
        self._in_traceback = False
        self._in_entry = False
        """In a launcher's entry: its source lines are cut too."""
        self._held = ""

    def release(self) -> str:
        """The unfinished line held back, now known to be all there is of it for now."""
        held, self._held = self._held, ""
        return held

    def cut(self, text: str) -> str:
        if self._pattern is None:
            return text
        text, self._held = self._held + text, ""
        kept = []
        for line in text.splitlines(keepends=True):
            if not line.endswith("\n") and (self._in_traceback and line.startswith(" ")
                                            or self.HEADER.startswith(line)):
                self._held = line  # the last line, unfinished
                break
            if line.startswith(self.HEADER):
                self._in_traceback, self._in_entry = True, False
            elif self._in_traceback and self._pattern.fullmatch(line):
                self._in_entry = True
                continue
            elif self._in_entry and line.startswith("    "):
                continue
            else:
                self._in_entry = False
                self._in_traceback = self._in_traceback and line.startswith(" ")
            kept.append(line)
        return "".join(kept)


class OwnPrintHolder:
    """Holds back the unfinished last line of a stream while it may be one of dap2mcp's own prints (`OWN_PRINT`):
    lldb-dap forwards lldb's stdout in chunks of its own size, so a memory read's long line of hex came in two
    output events and its second half, no longer marked, was taken for the program's output."""

    def __init__(self, mark: str) -> None:
        self._mark = mark
        self._held: dict[str, str] = {}

    def join(self, category: str, text: str) -> str:
        """`text` after what was held of `category`, less an unfinished last line that starts like a mark."""
        text = self._held.pop(category, "") + text
        start = text.rfind("\n") + 1
        tail = text[start:]
        if tail and (tail.startswith(self._mark) or self._mark.startswith(tail)):
            self._held[category] = tail
            return text[:start]
        return text
