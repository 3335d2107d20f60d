"""Which lines of a Python file run in two frames at once: the line of a generator expression or a
comprehension runs in its own frame (`<genexpr>`, `<listcomp>`, …) at every item, and in the frame of
the code around it once. pydevd stops at a line breakpoint in every frame that runs the line, so a
breakpoint there would stop once per item, evaluating its condition where the line's names do not
exist; the breakpoint is meant for the frame around it."""

from __future__ import annotations

import ast
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


def statement_lines(path: str, line: int) -> tuple[int, int] | None:
    """The lines of the statement `line` is in (a compound statement's header only: `for`, `if`, `with`, a
    `def`'s decorators and signature), or None. Python runs a statement spread over several lines by line
    events on each, coming back to its first line to make the call: a step there is still that statement."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    for first, last in _statements(path, found.st_mtime_ns, found.st_size):
        if first <= line <= last:
            return first, last
    return None


@functools.lru_cache(maxsize=64)
def _statements(path: str, _mtime: int, _size: int) -> tuple[tuple[int, int], ...]:
    """Each statement's lines, innermost first where they nest (a header holds no statement of its own)."""
    try:
        with open(path, "rb") as source:
            tree = ast.parse(source.read(), path)
    except (OSError, SyntaxError, ValueError):
        return ()
    spans = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or node.end_lineno is None:
            continue
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            spans.append((node.lineno, max(node.lineno, body[0].lineno - 1)))  # the header
        else:
            spans.append((node.lineno, node.end_lineno))
    return tuple(sorted(spans, key=lambda span: span[1] - span[0]))
