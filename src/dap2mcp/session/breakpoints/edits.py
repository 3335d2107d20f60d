"""Line breakpoints across an edit of their file. The agent fixes the bug and restarts: a breakpoint set on
line 23 should stay on the code it was set on, not land on whatever line 23 holds now (an uninitialised
variable there reads like the bug itself). The file as it was when the breakpoint was set is compared with
the file now, as an editor keeps its breakpoints through an edit."""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Iterable

from ..source_lines import Lines, read_lines
from .breakpoint import Breakpoint

SHOWN_CHARS = 80
COMPARED_LINES = 5_000
"""Lines of a changed stretch compared line by line at most (the comparison grows with its square); what
lies before and after the stretch is matched as is, so a big file with a small edit costs little."""

Mapping = Callable[[int], tuple[str, int] | None]
"""A 0-based line before the edit to how it fared, ("equal" or "replace", its 0-based line now), or None
where it was removed."""


def follow(breakpoints: Iterable[Breakpoint]) -> None:
    """Before breakpoints go to a run of the edited code, map each line breakpoint's line through the edit of
    its file since it was set: moved with its code, kept on its line where the line itself was edited, and
    not sent (`lost`) where its line was removed or another breakpoint holds the line it would move to. Each
    says what happened (`edited`)."""
    by_file: dict[str, list[Breakpoint]] = {}
    for bp in breakpoints:
        if bp.kind == "line" and bp.source is not None and bp.file is not None and bp.line is not None:
            by_file.setdefault(bp.file, []).append(bp)
    for path, group in by_file.items():
        lines = read_lines(path)
        if lines is None:
            continue  # the adapter says what it makes of a file that is gone
        mappings: dict[int, Mapping] = {}  # breakpoints set while the file stayed as it was share its lines
        moved = []
        for bp in group:
            if bp.source == lines:
                continue
            assert bp.source is not None
            if id(bp.source) not in mappings:
                mappings[id(bp.source)] = _mapping(bp.source, lines)
            if _map(bp, bp.source, lines, mappings[id(bp.source)]):
                moved.append(bp)
        mapped = {id(bp) for bp in moved}
        held = {bp.line for bp in group if not bp.lost and id(bp) not in mapped}
        for bp in moved:
            if bp.line in held:
                bp.lost = True
                bp.edited = (f"{os.path.basename(path)} changed since it was set: its code is now on line {bp.line}, "
                             "where another breakpoint is, so it is not set")
            held.add(bp.line)


def _map(bp: Breakpoint, before: Lines, after: Lines, mapping: Mapping) -> bool:
    """Map `bp` (lost where its line is gone, then still compared with `before` at the next restart); True
    if it now names a line of `after`."""
    assert bp.line is not None and bp.file is not None
    old = bp.line - 1
    name, was = os.path.basename(bp.file), _shown(before[old] if old < len(before) else "")
    fared = mapping(old) if old < len(before) else None
    if fared is None:
        bp.lost = True
        bp.edited = f"{name} changed since it was set: line {old + 1}, {was}, is no longer in it, so the breakpoint is not set"
        return False
    tag, new = fared
    if tag == "equal" and new != old:
        bp.edited = f"{name} changed since it was set: moved from line {old + 1} to line {new + 1} with its code, {was}"
    elif tag == "replace":
        where = f"line {old + 1}" if new == old else f"line {old + 1} (now {new + 1})"
        bp.edited = f"{name} changed since it was set: {where}, {was}, was edited and now reads {_shown(after[new])}"
    bp.line, bp.source = new + 1, after
    return True


def _mapping(before: Lines, after: Lines) -> Mapping:
    """How each line of `before` fared in `after`: the lines both begin and end with are matched as they are,
    and the stretch between them line by line (difflib), where it is short enough."""
    head = 0
    while head < min(len(before), len(after)) and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < min(len(before), len(after)) - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    middle_before, middle_after = before[head:len(before) - tail], after[head:len(after) - tail]
    opcodes = [] if max(len(middle_before), len(middle_after)) > COMPARED_LINES else \
        difflib.SequenceMatcher(None, middle_before, middle_after, autojunk=False).get_opcodes()

    def fared(line: int) -> tuple[str, int] | None:
        if line < head:
            return "equal", line
        if line >= len(before) - tail:
            return "equal", line + len(after) - len(before)
        inner = line - head
        for tag, i1, i2, j1, j2 in opcodes:
            if i1 <= inner < i2 and tag in ("equal", "replace") and j1 + inner - i1 < j2:
                return tag, head + j1 + inner - i1
        return None

    return fared


def _shown(text: str) -> str:
    return f"`{text[:SHOWN_CHARS]}{'…' if len(text) > SHOWN_CHARS else ''}`" if text else "an empty line"
