"""Which lines of a Python file run in two frames at once: the line of a generator expression or a
comprehension runs in its own frame (`<genexpr>`, `<listcomp>`, …) at every item, and in the frame of
the code around it once. pydevd stops at a line breakpoint in every frame that runs the line, so a
breakpoint there would stop once per item, evaluating its condition where the line's names do not
exist; the breakpoint is meant for the frame around it."""

from __future__ import annotations

import functools
import os
from types import CodeType

COMPREHENSIONS = frozenset({"<genexpr>", "<listcomp>", "<setcomp>", "<dictcomp>"})


def shared_lines(path: str) -> frozenset[int]:
    """Lines that a comprehension's frame runs and the frame around it runs too; none where the file cannot
    be read or compiled (it is then left to the adapter as it is)."""
    try:
        found = os.stat(path)
    except OSError:
        return frozenset()
    return _shared_lines(path, found.st_mtime_ns, found.st_size)


@functools.lru_cache(maxsize=64)
def _shared_lines(path: str, _mtime: int, _size: int) -> frozenset[int]:
    try:
        with open(path, "rb") as source:
            code = compile(source.read(), path, "exec", dont_inherit=True)
    except (OSError, SyntaxError, ValueError):
        return frozenset()
    return frozenset(_walk(code))


def _walk(code: CodeType) -> set[int]:
    own = _lines(code)
    shared: set[int] = set()
    for inner in code.co_consts:
        if isinstance(inner, CodeType):
            shared |= _walk(inner)
            if inner.co_name in COMPREHENSIONS:
                shared |= _lines(inner) & own
    return shared


def _lines(code: CodeType) -> set[int]:
    return {line for _, _, line in code.co_lines() if line is not None}
