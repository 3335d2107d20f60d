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
    an entry is its `File` line and the indented source lines below it, which may come in a later chunk."""

    def __init__(self, launcher_frames: re.Pattern[str] | None) -> None:
        self._pattern = launcher_frames
        self._inside = False
        self._cut_line_goes_on = False
        """The last chunk ended inside a line that was cut: the next chunk begins with the rest of it."""

    def cut(self, text: str) -> str:
        if self._pattern is None:
            return text
        kept = []
        for line in text.splitlines(keepends=True):
            if self._cut_line_goes_on or self._pattern.fullmatch(line):
                self._inside = True
            elif self._inside and line.startswith("    "):
                pass
            else:
                self._inside = False
                kept.append(line)
            self._cut_line_goes_on = self._inside and not line.endswith("\n")
        return "".join(kept)
