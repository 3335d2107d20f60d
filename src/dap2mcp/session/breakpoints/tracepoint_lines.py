"""Tracepoints' messages taken out of the program's own output, where the program prints them itself.

js-debug's logpoints are `console.log` calls made in the program (`AdapterProfile.breakpoints.logs_in_program_output`), so
their messages come through the pipes dap2mcp reads the program's output from, between the program's lines and
in their order. Each message is written as `MARK nonce:id MARK message MARK` and a line end (registry.py): the
nonce names the session whose breakpoint logged it (a worker thread's session, or the program's), the last mark
where the message ends, over as many lines as it takes. A pipe's reads cut text anywhere: the start of a message
whose end has not come yet is held back until it does; everything else passes at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Piece:
    text: str
    nonce: str | None = None
    """Where the piece is a tracepoint's message: the nonce of the registry that tagged it."""


class TracepointLines:
    def __init__(self, mark: str) -> None:
        self._mark = mark
        escaped = re.escape(mark)
        self._start = re.compile(f"(?<![^\\n]){escaped}(?P<nonce>[0-9a-f]+):\\d+{escaped}")
        """A tag at a line's start (or the text's, see `_at_line_start`)."""
        self._maybe_start = re.compile(f"(?<![^\\n]){escaped}[0-9a-f:\\d]*(?:{escaped})?$")
        """A tag, or the beginning of one, at the start of the text's last, unfinished line."""
        self._end = mark + "\n"
        self._held = ""
        self._at_line_start = True

    def split(self, text: str) -> list[Piece]:
        """`text` as the program's own pieces and tracepoints' messages, in order; the unfinished start of a
        message is held back for the next call. Text without the mark passes whole, without a copy."""
        text, self._held = self._held + text, ""
        if not text:
            return []
        if self._mark not in text:
            self._at_line_start = text.endswith("\n")
            return [Piece(text)]
        pieces: list[Piece] = []
        at = 0
        # a text that does not start a line cannot start with a tag: the lookbehind sees a line start at 0
        search_from = 0 if self._at_line_start else text.find("\n") + 1 or len(text)
        while (found := self._start.search(text, max(at, search_from))) is not None:
            ends = text.find(self._end, found.end())
            if ends < 0:
                self._held = text[found.start():]
                text = text[:found.start()]
                break
            if found.start() > at:
                pieces.append(Piece(text[at:found.start()]))
            at = ends + len(self._end)
            pieces.append(Piece(text[found.start():at], found.group("nonce")))
        else:
            unfinished = self._maybe_start.search(text, max(at, search_from))
            if unfinished is not None:
                self._held = text[unfinished.start():]
                text = text[:unfinished.start()]
        if at < len(text):
            pieces.append(Piece(text[at:]))
        if text:
            self._at_line_start = text.endswith("\n")
        return pieces
