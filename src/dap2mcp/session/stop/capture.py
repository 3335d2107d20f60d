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

from pydantic import TypeAdapter, ValidationError

from ...dap import AdapterRefused, bodies
from ...snapshots.model import Node, Snapshot, child_path, roots_in_order
from .inspect import Previews, ViewScope

Fetch = Callable[[int], Awaitable[list[bodies.Variable]]]

_CUT: list[bodies.Variable] = []  # a helper reference the helper did not expand

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
    raw: bodies.Variable
    ancestors: tuple[_Pending, ...]
    children: list[_Pending] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)

    @property
    def reference(self) -> int:
        return self.raw.variablesReference

    def refers_back(self) -> bool:
        """The same object as an ancestor: the same reference, or the same address in its value."""
        value = self.raw.value
        return any(a.reference == self.reference or
                   (_ADDRESS.search(value) and a.raw.value == value and a.raw.type == self.raw.type)
                   for a in self.ancestors)


def snapshot_scopes(scopes: list[ViewScope]) -> list[ViewScope]:
    """The scopes a snapshot holds: locals and arguments, not globals or registers."""
    cheap = [s for s in scopes if s.reference and s.listed]
    local = [s for s in cheap if s.scope.presentationHint in ("locals", "arguments")
             or any(word in s.name.lower() for word in ("local", "argument"))]
    return local or cheap[:1]


def now() -> datetime:
    moment = datetime.now(UTC)
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def visible(raw: list[bodies.Variable], hidden: frozenset[str]) -> list[bodies.Variable]:
    return [v for v in raw if v.name not in hidden]


def is_method(raw: bodies.Variable, callables: frozenset[str]) -> bool:
    """An attribute that is a method (`ValueShapes.callables`, or a `method` hint): the class's, not the object's
    state, and a bound one's text repeats its owner's. Items of a list or a dict (`0`, `'key'`) are never methods
    here, whatever they hold: a handler kept in a dict is the program's data."""
    if not raw.name.isidentifier():
        return False
    return (raw.type or "") in callables or raw.kind == "method"


def members(raw: list[bodies.Variable], hidden: frozenset[str], callables: frozenset[str]) -> list[bodies.Variable]:
    """A value's children as a snapshot records them: not the adapter's groupings (`hidden`), not methods."""
    return [v for v in visible(raw, hidden) if not is_method(v, callables)]


def merge_scopes(per_scope: list[list[bodies.Variable]], hidden: frozenset[str]) -> list[bodies.Variable]:
    """One namespace for the frame: where scopes share a name, the inner (first) scope's wins."""
    merged: dict[str, bodies.Variable] = {}
    for raw in per_scope:
        for variable in visible(raw, hidden):
            merged.setdefault(variable.name, variable)
    return list(merged.values())


async def capture(fetch: Fetch, top: list[bodies.Variable], *, depth: int, hidden: frozenset[str],
                  limits: CaptureLimits, cut_markers: frozenset[str] = frozenset(),
                  known: dict[int, list[bodies.Variable]] | None = None,
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


def capture_top(top: list[bodies.Variable], *, limits: CaptureLimits,
                previews: Previews | None = None) -> tuple[tuple[Node, ...], bool]:
    """`capture` at depth 0, which asks the adapter nothing: a stop snapshot is built with it while the
    stop's other scopes are still being read (recorder.py). `previews`: see `_previewed`."""
    with _collector_paused():
        return roots_in_order([_build("", _previewed(v, previews or {}), limits) for v in top[:limits.nodes]]), \
            len(top) > limits.nodes


def _previewed(raw: bodies.Variable, previews: Previews) -> _Pending:
    """A top-level variable as its context shows it: where the adapter's text hides the contents (a C struct's
    `{...}`) and a preview was read, the preview's text, and the members it was made of as its children."""
    if (preview := previews.get(id(raw))) is None:
        return _Pending(raw, ())
    item = _Pending(raw.model_copy(update={"value": preview.text}), ())
    item.children = [_Pending(member, (item,)) for member in preview.members or ()]
    return item


async def _capture(fetch: Fetch, top: list[bodies.Variable], *, depth: int, hidden: frozenset[str],
                   limits: CaptureLimits, cut_markers: frozenset[str], known: dict[int, list[bodies.Variable]] | None,
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
            if cut_markers and any(v.name in cut_markers for v in kept):
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


async def _children(fetch: Fetch, gate: asyncio.Semaphore, reference: int) -> list[bodies.Variable] | None:
    async with gate:
        try:
            return await fetch(reference)
        except AdapterRefused:  # only a refusal: a timeout or a dead adapter fails the capture, loudly
            return None


def _build(parent: str, item: _Pending, limits: CaptureLimits, unordered: frozenset[str] = frozenset(),
           by_value: bool = False) -> Node:
    value = item.raw.value
    name = value[:limits.value_chars] if by_value else item.raw.name
    path = child_path(parent, name)
    flags = item.flags
    if len(value) > limits.value_chars:
        value = value[: limits.value_chars - 1] + "…"
        flags.add("valueTruncated")
    type_ = item.raw.type or ""
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


_HELPER_REPLY = TypeAdapter(dict[int, list[bodies.Variable]])
"""The helper's replies, read in one call where they fit: a capture may hold 20,000 of them."""


def prefetched(reply: str, top: list[bodies.Variable]) -> tuple[list[bodies.Variable], dict[int, list[bodies.Variable]]]:
    """The helper's reply as `variables` replies by reference, and `top` with the helper's references. A reply of
    another shape raises `ValueError`, `KeyError` or `TypeError`."""
    data = json.loads(reply)
    if "tooLarge" in data:
        raise ValueError(f"the helper's reply would be {data['tooLarge']:,} bytes")
    roots: dict[str, int] = data["roots"]
    try:
        children = _HELPER_REPLY.validate_python(data["children"])
    except ValidationError:  # read as leniently as the adapter's own replies
        children = {int(ref): bodies.VariablesBody.read({"variables": kids}).variables
                    for ref, kids in data["children"].items()}
    swapped = [v.model_copy(update={"variablesReference": roots.get(v.name, v.variablesReference)}) for v in top]
    return swapped, children


def make_snapshot(*, snapshot_id: str, label: str, thread_id: int | None, frame_index: int, function_name: str,
                  depth: int, cycle: int, roots: tuple[Node, ...], truncated: bool, run: str,
                  auto: bool = False, call: tuple[object, ...] | None = None, partial: bool = False) -> Snapshot:
    return Snapshot(id=snapshot_id, label=label, timestamp=now(), thread_id=thread_id, frame_index=frame_index,
                    function_name=function_name, depth=depth, cycle=cycle, roots=roots, truncated=truncated,
                    auto=auto, run=run, call=call, partial=partial)
