"""The debuggee's output, in arrival order, bounded, with a cursor for "since the last stop"."""

from __future__ import annotations

import asyncio
import re

from .models import Output

IGNORED_CATEGORIES = frozenset({"telemetry"})


class OutputBuffer:
    def __init__(self, keep_chars: int = 1_000_000) -> None:
        self._keep = keep_chars
        self._chunks: list[str] = []
        self._start = 0  # absolute offset of the first kept character
        self._end = 0  # absolute offset after the last character
        self._mark = 0

    def append(self, category: str, text: str) -> None:
        if category in IGNORED_CATEGORIES or not text:
            return
        self._chunks.append(text)
        self._end += len(text)
        if self._end - self._start > self._keep * 2:
            joined = "".join(self._chunks)[-self._keep :]
            self._chunks = [joined]
            self._start = self._end - len(joined)

    @property
    def size(self) -> int:
        return self._end

    async def quiet(self, pause: float, most: float) -> None:
        """Wait until no output has come for `pause` seconds (at most `most`): adapters forward output
        from another thread than their responses and events, so the last of it comes a little later."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + most
        size = -1
        while self._end != size and loop.time() < deadline:
            size = self._end
            await asyncio.sleep(pause)

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
        return self.read(self._mark, limit)

    def take_new(self, limit: int) -> Output:
        out = self.read(self._mark, limit)
        self._mark = self._end
        return out


class TracebackCutter:
    """Cuts the launcher's entries from the tracebacks a program prints (`AdapterProfile.launcher_frames`):
    an entry is its `File` line and the indented source lines below it. Output events split lines anywhere,
    so inside a traceback a line is held back until its end comes (a traceback's lines come whole soon)."""

    HEADER = "Traceback (most recent call last):"

    def __init__(self, launcher_frames: re.Pattern[str] | None) -> None:
        self._pattern = launcher_frames
        self._in_traceback = False
        self._in_entry = False
        """In a launcher's entry: its source lines are cut too."""
        self._held = ""

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
