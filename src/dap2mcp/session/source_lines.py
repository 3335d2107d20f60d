"""A source file's lines as the debugger reads them: once per version of the file (its size and time), shared by
what compares a file with an earlier version of it (edits.py), finds a line by its text (a breakpoint's `text`)
and shows the line a program stopped on."""

from __future__ import annotations

import functools
import os

Lines = tuple[str, ...]

SHOWN_CHARS = 120
"""A stopped line's text is cut here: a line's code says where the program is; a minified file's would not."""


def read_lines(path: str) -> Lines | None:
    """The file's lines without surrounding whitespace (an indent change is no edit of the code); None
    where it cannot be read. Breakpoints set in a file that did not change between them share one copy."""
    try:
        found = os.stat(path)
        return _read(path, found.st_mtime_ns, found.st_size)
    except OSError:
        return None


@functools.lru_cache(maxsize=32)
def _read(path: str, mtime_ns: int, size: int) -> Lines:
    with open(path, encoding="utf-8", errors="replace") as handle:
        return tuple(text.strip() for text in handle)


def line_text(path: str | None, line: int | None) -> str | None:
    """Line `line` of `path`, without its indent and cut at `SHOWN_CHARS`; None where there is no such line."""
    lines = read_lines(path) if path and line else None
    if lines is None or line is None or not 0 < line <= len(lines):
        return None
    text = lines[line - 1]
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "\u2026"
