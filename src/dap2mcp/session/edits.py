"""Line breakpoints across an edit of their file. The agent fixes the bug and restarts: a breakpoint set on
line 23 should stay on the code it was set on, not land on whatever line 23 holds now (an uninitialised
variable there reads like the bug itself). The file as it was when the breakpoint was set is compared with
the file now, as an editor keeps its breakpoints through an edit."""

from __future__ import annotations

import difflib
import functools
import os
from collections.abc import Iterable

from .breakpoints import Breakpoint

SHOWN_CHARS = 80
COMPARED_LINES = 50_000
"""Longer files are not compared (the comparison grows with the square of the changed part)."""

Lines = tuple[str, ...]


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


def follow(breakpoints: Iterable[Breakpoint]) -> None:
    """Before breakpoints go to a new run, map each line breakpoint's line through the edit of its file since
    it was set: moved with its code, kept on its line where the line itself was edited, and not sent where
    its line was removed. Each says what happened (`edited`)."""
    now: dict[str, Lines | None] = {}
    for bp in breakpoints:
        if bp.kind != "line" or bp.source is None or bp.file is None or bp.line is None:
            continue
        if bp.file not in now:
            now[bp.file] = read_lines(bp.file)
        lines = now[bp.file]
        if lines is None or lines == bp.source:
            continue  # a file that is gone is the adapter's to report
        if max(len(lines), len(bp.source)) <= COMPARED_LINES:
            _map(bp, bp.source, lines)
        bp.source = lines


def _map(bp: Breakpoint, before: Lines, after: Lines) -> None:
    assert bp.line is not None and bp.file is not None
    old = bp.line - 1
    name, was = os.path.basename(bp.file), _shown(before[old] if old < len(before) else "")
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if not i1 <= old < i2:
            continue
        new = j1 + (old - i1)
        if tag == "equal" and new == old:
            return
        if tag == "equal":
            bp.edited = f"{name} changed since it was set: moved from line {old + 1} to line {new + 1} with its code, {was}"
        elif tag == "replace" and new < j2:
            where = f"line {old + 1}" if new == old else f"line {old + 1} (now {new + 1})"
            bp.edited = f"{name} changed since it was set: {where}, {was}, was edited and now reads {_shown(after[new])}"
        else:
            bp.lost = True
            bp.edited = f"{name} changed since it was set: line {old + 1}, {was}, was removed, so the breakpoint is not set"
            return
        bp.line = new + 1
        return


def _shown(text: str) -> str:
    return f"`{text[:SHOWN_CHARS]}{'…' if len(text) > SHOWN_CHARS else ''}`" if text else "an empty line"
