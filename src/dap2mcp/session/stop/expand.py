"""An evaluated value's members, a few levels down, for `evaluate {expression, depth}`.

An adapter's text of a value leaves its deeper parts out (debugpy writes `[[...], [...]]` past two levels of
nesting and `...` past 60 items; lldb a struct as its address), and nothing said so. Here the members are read
with `variables` requests, level by level, as a snapshot reads them (the same groupings and methods left out),
and whatever is still cut when the levels run out is named (`leftOut`) with the way to see it (`expand`).
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any

from ...adapters.base import ValueShapes
from ...dap import AdapterRefused, bodies
from ...snapshots.model import child_path
from .capture import members
from .inspect import Limits, Requester, clip, fetch_variables
from .preview import wanted

MAX_DEPTH = 5
"""Levels `evaluate` expands at most; a part deeper than that is evaluated by its own expression."""
NODES = 500
"""Members in one answer at most, over all levels: past them a value's members are cut like one too wide."""
LEFT_OUT = 20
"""Parts named in `leftOut` at most; `leftOutTotal` counts them all."""
IN_FLIGHT = 8

_PLAIN = re.compile(r"[A-Za-z_][\w.]*(?:\[[^\[\]]*\])*")
"""An expression a member's path can be written after (`order.items`, `grid[0]`); others are parenthesized."""


@dataclass
class Expansion:
    children: list[dict[str, Any]] | None = None
    """The value's members, each `{name, value, type}` and, where expanded, its own `children`."""
    left_out: list[str] = field(default_factory=list)
    """Expressions of the parts still cut: at the last level, or with members past the bound."""
    listed_in_part: bool = False
    """Some value's members were cut at the bound: a deeper `depth` does not show the rest."""


@dataclass
class _Part:
    raw: bodies.Variable
    expression: str
    shown: dict[str, Any]
    """Where its members go in the answer."""


def hides(raw: bodies.Variable, shapes: ValueShapes) -> bool:
    """Whether a value's text leaves some of its contents out (and it has members to read them from)."""
    if not raw.variablesReference:
        return False
    return bool(shapes.elided is not None and shapes.elided.search(raw.value)) or wanted(raw, shapes) is not None


async def levels(requester: Requester, root: bodies.Variable, depth: int, shapes: ValueShapes,
                 hidden: frozenset[str], limits: Limits) -> Expansion:
    """`root` (an evaluation's result, shaped as a variable, `evaluateName` its expression) expanded `depth`
    levels; at depth 0 only whether its own text leaves parts out."""
    expression = root.evaluateName or root.name or ""
    top = _Part(root, expression, {})
    out = Expansion()
    level, budget = [top], NODES
    for _ in range(depth):
        level, budget = await _next_level(requester, level, budget, shapes, hidden, limits, out)
    out.left_out.extend(part.expression for part in level if hides(part.raw, shapes))
    out.children = top.shown.get("children")
    return out


async def _next_level(requester: Requester, level: list[_Part], budget: int, shapes: ValueShapes,
                      hidden: frozenset[str], limits: Limits, out: Expansion) -> tuple[list[_Part], int]:
    """The members of every part of `level` that has some, read at once; the parts of the level below."""
    parts = [p for p in level if p.raw.variablesReference]
    gate = asyncio.Semaphore(IN_FLIGHT)
    replies = await asyncio.gather(*(_members(requester, gate, p.raw.variablesReference) for p in parts))
    below: list[_Part] = []
    for part, reply in zip(parts, replies, strict=True):
        if reply is None:
            part.shown["unreadable"] = True
            continue
        kept = members(reply, hidden, shapes.callables)
        room = max(0, min(limits.variables_per_scope, budget))
        if len(kept) > room:
            part.shown["truncated"] = True
            out.left_out.append(part.expression)
            out.listed_in_part = True
        budget -= min(len(kept), room)
        part.shown["children"] = []
        for raw in kept[:room]:
            child = _Part(raw, _expression(part.expression, raw), _shown(raw, limits))
            part.shown["children"].append(child.shown)
            below.append(child)
    return below, budget


async def _members(requester: Requester, gate: asyncio.Semaphore, reference: int) -> list[bodies.Variable] | None:
    async with gate:
        try:
            return await fetch_variables(requester, reference)
        except AdapterRefused:
            return None


def _expression(parent: str, raw: bodies.Variable) -> str:
    """How the agent evaluates a member: the adapter's own expression for it, else its path under `parent`."""
    if raw.evaluateName:
        return raw.evaluateName
    return child_path(parent if _PLAIN.fullmatch(parent) else f"({parent})", raw.name)


def _shown(raw: bodies.Variable, limits: Limits) -> dict[str, Any]:
    value, cut = clip(raw.value, limits.value_chars)
    shown: dict[str, Any] = {"name": raw.name, "value": value}
    if raw.type:
        shown["type"] = clip(raw.type, limits.value_chars)[0]
    if cut:
        shown["valueTruncated"] = True
    return shown


def how_to_expand(expression: str, depth: int, found: Expansion) -> str:
    """What the agent does to see the parts left out: one level more, or each part by its own expression."""
    left_out, ways = found.left_out, []
    if depth < MAX_DEPTH:
        again = json.dumps({"expression": expression, "depth": depth + 1})
        ways.append(f"evaluate {again} lists one level more (depth at most {MAX_DEPTH})")
    if parts := [part for part in left_out if part != expression]:
        ways.append("evaluate a part by the expression `leftOut` gives for it, e.g. "
                    + json.dumps({"expression": parts[0], "depth": 1}))
    if found.listed_in_part:
        ways.append("a value listed only in part (its first members, `truncated`) shows the rest when a part of it "
                    "is evaluated: an index, a key or a slice")
    return "; or ".join(ways) or "evaluate parts of the value by their own expressions"
