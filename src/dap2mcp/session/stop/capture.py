"""Turns a frame's variables, as the adapter reports them, into snapshot nodes.

Deep captures go level by level: every container of a level is expanded at once (up to
`concurrency` requests in flight), so a capture costs about one round trip per level instead
of one per container. Cycles stop where a child refers back to an ancestor.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ...dap import AdapterRefused
from ...snapshots.model import Node, Snapshot, child_path, roots_in_order
from .inspect import PREVIEW, PREVIEW_MEMBERS, unexpanded

Fetch = Callable[[int], Awaitable[list[dict[str, Any]]]]

_CUT: list[dict[str, Any]] = []  # a helper reference the helper did not expand

_ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}")


@dataclass(frozen=True)
class CaptureLimits:
    value_chars: int = 1000
    children: int = 1000
    """Children kept per variable; the rest are cut and the node flagged `truncated`."""
    nodes: int = 20_000
    """Nodes in one snapshot at most: a 10-million-item list must not cost the server hundreds of MB."""
    concurrency: int = 16
    """Requests in flight. debugpy answers them one at a time, so more only queue (and time out) there."""
    one_request: bool = True
    """Expand in the debuggee with the adapter's helper, where it has one, instead of request by request."""


@dataclass
class _Pending:
    raw: dict[str, Any]
    ancestors: tuple[_Pending, ...]
    children: list[_Pending] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)

    @property
    def reference(self) -> int:
        return int(self.raw.get("variablesReference") or 0)

    def refers_back(self) -> bool:
        """The same object as an ancestor: the same reference, or the same address in its value."""
        value = str(self.raw.get("value", ""))
        return any(a.reference == self.reference or
                   (_ADDRESS.search(value) and a.raw.get("value") == value and a.raw.get("type") == self.raw.get("type"))
                   for a in self.ancestors)


def snapshot_scopes(scopes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The scopes a snapshot holds: locals and arguments, not globals or registers."""
    cheap = [s for s in scopes if s.get("variablesReference") and not unexpanded(s)]
    local = [s for s in cheap if s.get("presentationHint") in ("locals", "arguments")
             or any(word in str(s.get("name", "")).lower() for word in ("local", "argument"))]
    return local or cheap[:1]


def now() -> datetime:
    moment = datetime.now(UTC)
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def visible(raw: list[dict[str, Any]], hidden: frozenset[str]) -> list[dict[str, Any]]:
    return [v for v in raw if str(v.get("name", "")) not in hidden]


def is_method(raw: dict[str, Any], callables: frozenset[str]) -> bool:
    """An attribute that is a method (`ValueShapes.callables`, or a `method` hint): the class's, not the object's
    state, and a bound one's text repeats its owner's. Items of a list or a dict (`0`, `'key'`) are never methods
    here, whatever they hold: a handler kept in a dict is the program's data."""
    name = str(raw.get("name", ""))
    if not name.isidentifier():
        return False
    hint = raw.get("presentationHint")
    return str(raw.get("type") or "") in callables or (isinstance(hint, dict) and hint.get("kind") == "method")


def members(raw: list[dict[str, Any]], hidden: frozenset[str], callables: frozenset[str]) -> list[dict[str, Any]]:
    """A value's children as a snapshot records them: not the adapter's groupings (`hidden`), not methods."""
    return [v for v in visible(raw, hidden) if not is_method(v, callables)]


def merge_scopes(per_scope: list[list[dict[str, Any]]], hidden: frozenset[str]) -> list[dict[str, Any]]:
    """One namespace for the frame: where scopes share a name, the inner (first) scope's wins."""
    merged: dict[str, dict[str, Any]] = {}
    for raw in per_scope:
        for variable in visible(raw, hidden):
            merged.setdefault(str(variable.get("name", "")), variable)
    return list(merged.values())


async def capture(fetch: Fetch, top: list[dict[str, Any]], *, depth: int, hidden: frozenset[str],
                  limits: CaptureLimits, cut_markers: frozenset[str] = frozenset(),
                  known: dict[int, list[dict[str, Any]]] | None = None,
                  unordered: frozenset[str] = frozenset(),
                  callables: frozenset[str] = frozenset()) -> tuple[tuple[Node, ...], bool]:
    """Nodes for the frame's top-level variables `top`, expanded `depth` levels; (roots, truncated).

    `known` holds replies already in hand (from a capture helper), by reference; the rest are fetched.
    The members of a container of an `unordered` type are named by their values (`ValueShapes.unordered`);
    attributes of a `callables` type are left out (`is_method`).
    """
    with _collector_paused():
        return await _capture(fetch, top, depth=depth, hidden=hidden, limits=limits, cut_markers=cut_markers,
                              known=known, unordered=unordered, callables=callables)


def capture_top(top: list[dict[str, Any]], *, limits: CaptureLimits) -> tuple[tuple[Node, ...], bool]:
    """`capture` at depth 0, which asks the adapter nothing: a stop snapshot is built with it while the
    stop's other scopes are still being read (recorder.py)."""
    with _collector_paused():
        return roots_in_order([_build("", _previewed(v), limits) for v in top[:limits.nodes]]), \
            len(top) > limits.nodes


def _previewed(raw: dict[str, Any]) -> _Pending:
    """A top-level variable as its context shows it: where the adapter's text hides the contents (a C struct's
    `{...}`) and a preview was read, the preview's text, and the members it was made of as its children."""
    if PREVIEW not in raw:
        return _Pending(raw, ())
    item = _Pending({**raw, "value": raw[PREVIEW]}, ())
    item.children = [_Pending(member, (item,)) for member in raw.get(PREVIEW_MEMBERS) or ()]
    return item


async def _capture(fetch: Fetch, top: list[dict[str, Any]], *, depth: int, hidden: frozenset[str],
                   limits: CaptureLimits, cut_markers: frozenset[str], known: dict[int, list[dict[str, Any]]] | None,
                   unordered: frozenset[str], callables: frozenset[str]) -> tuple[tuple[Node, ...], bool]:
    if depth == 0:
        return capture_top(top, limits=limits)
    known = known or {}
    budget = limits.nodes
    level = [_Pending(v, ()) for v in top[:budget]]
    truncated = len(top) > budget
    budget -= len(level)
    roots = level
    gate = asyncio.Semaphore(limits.concurrency)
    for _ in range(depth):
        expand = []
        for item in level:
            if item.reference <= 0:
                continue
            if item.refers_back():
                item.flags.add("cycle")
            else:
                expand.append(item)
        if not expand or budget <= 0:
            truncated = truncated or bool(expand)
            break
        missing = [item.reference for item in expand
                   if item.reference not in known and item.reference < HELPER_REFERENCES]
        replies = dict(zip(missing, await asyncio.gather(*(_children(fetch, gate, ref) for ref in missing)), strict=True))
        fetched = [known.get(item.reference, replies.get(item.reference, _CUT)) for item in expand]
        level = []
        for item, raw in zip(expand, fetched, strict=True):
            if raw is None:
                item.flags.add("unreadable")
                continue
            if raw is _CUT:  # the helper stopped short of it, at the node budget
                item.flags.add("truncated")
                truncated = True
                continue
            kept = members(raw, hidden, callables)
            if cut_markers and any(str(v.get("name", "")) in cut_markers for v in kept):
                kept = visible(kept, cut_markers)
                item.flags.add("truncated")
            if len(kept) > limits.children:
                kept = kept[: limits.children]
                item.flags.add("truncated")
            if len(kept) > budget:
                kept = kept[:budget]
                item.flags.add("truncated")
                truncated = True
            budget -= len(kept)
            chain = (*item.ancestors, item)
            item.children = [_Pending(v, chain) for v in kept]
            level.extend(item.children)
    return roots_in_order([_build("", item, limits, unordered) for item in roots]), truncated


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Building a big tree allocates enough to set off full garbage collections, which find nothing
    to free in these acyclic tuples but double the time; so they wait until the tree is built."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


async def _children(fetch: Fetch, gate: asyncio.Semaphore, reference: int) -> list[dict[str, Any]] | None:
    async with gate:
        try:
            return await fetch(reference)
        except AdapterRefused:  # only a refusal: a timeout or a dead adapter fails the capture, loudly
            return None


def _build(parent: str, item: _Pending, limits: CaptureLimits, unordered: frozenset[str] = frozenset(),
           by_value: bool = False) -> Node:
    value = str(item.raw.get("value", ""))
    name = value[:limits.value_chars] if by_value else str(item.raw.get("name", ""))
    path = child_path(parent, name)
    flags = item.flags
    if len(value) > limits.value_chars:
        value = value[: limits.value_chars - 1] + "…"
        flags.add("valueTruncated")
    type_ = str(item.raw.get("type") or "")
    children = [_build(path, c, limits, unordered, type_ in unordered) for c in item.children]
    if type_ in unordered and children and "truncated" not in flags:
        value = _in_order(value, [c.value for c in children])
    return Node.build(parent, name, type_, value, children, flags, path=path)


def _in_order(value: str, members: list[str]) -> str:
    """An unordered container's text with its members in sorted order (`{'blue', 'red'}`, `frozenset({1, 2})`),
    where they can be found in it: the same members in another order (a set in another run) read the same."""
    start, end = value.find("{"), value.rfind("}")
    if start < 0 or end < start or sorted(value[start + 1:end].split(", ")) != sorted(members):
        return value
    return value[:start + 1] + ", ".join(sorted(members)) + value[end:]


HELPER_NAMES = frozenset({"exec", "locals", "__builtins__", "__import__"})
"""Names the helper expression calls through: where the frame binds one, the helper is not used."""

HELPER_REFERENCES = 2**31
"""References at and above this come from a capture helper, never from the adapter."""


def one_request_expression(source: str, names: list[str], depth: int, limits: CaptureLimits,
                           callables: frozenset[str] = frozenset()) -> str:
    """An expression that runs a helper module's `capture` on the frame's locals, evaluated in the frame; the
    helper leaves attributes of a `callables` type out, as `capture` would (it need not expand them)."""
    call = (f'ns["capture"](loc, {names!r}, {depth}, {limits.children}, {limits.nodes}, {limits.value_chars}, '
            f'{sorted(callables)!r})')
    return f"(lambda ns, loc: (exec({source!r}, ns), {call})[1])({{}}, locals())"


def prefetched(reply: str, top: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[int, list[dict[str, Any]]]]:
    """The helper's reply as `variables` replies by reference, and `top` with the helper's references."""
    data = json.loads(reply)
    if "tooLarge" in data:
        raise ValueError(f"the helper's reply would be {data['tooLarge']:,} bytes")
    roots: dict[str, int] = data["roots"]
    children = {int(ref): list(kids) for ref, kids in data["children"].items()}
    swapped = [{**v, "variablesReference": roots.get(str(v.get("name")), v.get("variablesReference"))} for v in top]
    return swapped, children


def make_snapshot(*, snapshot_id: str, label: str, thread_id: int | None, frame_index: int, function_name: str,
                  depth: int, cycle: int, roots: tuple[Node, ...], truncated: bool, run: str,
                  auto: bool = False, call: tuple[object, ...] | None = None, partial: bool = False) -> Snapshot:
    return Snapshot(id=snapshot_id, label=label, timestamp=now(), thread_id=thread_id, frame_index=frame_index,
                    function_name=function_name, depth=depth, cycle=cycle, roots=roots, truncated=truncated,
                    auto=auto, run=run, call=call, partial=partial)
