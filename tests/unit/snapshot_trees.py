"""Snapshot trees for the unit tests: literal specs, and hypothesis strategies for random trees
and for mutations of a tree that keep most of its ids."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from hypothesis import strategies as st

from dap2mcp.snapshots.model import (
    Node,
    Snapshot,
    child_path,
    comparable,
    roots_in_order,
)

# -- building trees from specs -------------------------------------------------------------------
# A spec maps a name to (type, value, children spec, flags); dict order is the order children are
# handed to Node.build, which must not matter.

Entry = tuple[str, str, dict[str, Any], tuple[str, ...]]
T0 = datetime(2024, 5, 17, 10, 30, 0, 250_000, tzinfo=UTC)


def v(type_: str, value: str, children: dict[str, Entry] | None = None, flags: tuple[str, ...] = ()) -> Entry:
    return (type_, value, children or {}, flags)


def build(spec: dict[str, Entry], parent: str = "", rng: random.Random | None = None) -> list[Node]:
    items = list(spec.items())
    if rng is not None:
        rng.shuffle(items)
    out = []
    for name, (type_, value, kids, flags) in items:
        flags = list(flags)
        if rng is not None:
            rng.shuffle(flags)
        out.append(Node.build(parent, name, type_, value, build(kids, child_path(parent, name), rng), flags))
    return out


def make(spec: dict[str, Entry], *, rng: random.Random | None = None, **meta: Any) -> Snapshot:
    fields: dict[str, Any] = {"id": "snap-a", "label": "snapshot-1", "timestamp": T0, "thread_id": 1,
                              "frame_index": 0, "function_name": "main", "depth": 3, "cycle": 1}
    fields.update(meta)
    return Snapshot(roots=roots_in_order(build(spec, "", rng)), **fields)


def header(node: Node) -> tuple[str, str, str, tuple[str, ...]]:
    """The header fields as the diff compares them (memory addresses masked)."""
    return (node.name, node.type, comparable(node.value), node.flags)


# -- hypothesis strategies -----------------------------------------------------------------------

NAMES = ("a", "b", "total", "x_1", "é", "a b", "0", "1", "2", "10", "'k'", "'a b'", '"q"')
"""Identifiers, non-identifiers, digit names and quoted names; every one gives a distinct child id."""
TYPES = ("int", "str", "list", "dict", "Order")
ADDRESSED = ("<Foo object at 0x7f3a5c2e1d90>", "<Foo object at 0x7f3a5c2e1da0>", "<Bar object at 0x7f3a5c2e1d90>")
"""Values that differ only by a memory address compare equal (`comparable`)."""
VALUES = st.one_of(st.sampled_from(("0", "1", "2", "'x'", "None", "[…]", "ünï", "", *ADDRESSED)), st.text(max_size=3))
FLAGS = st.lists(st.sampled_from(("cycle", "truncated")), max_size=2).map(tuple)


@st.composite
def entries(draw: st.DrawFn, depth: int = 4, width: int = 4) -> Entry:
    kids = draw(specs(depth - 1, max(width - 1, 2))) if depth > 1 else {}
    return (draw(st.sampled_from(TYPES)), draw(VALUES), kids, draw(FLAGS))


@st.composite
def specs(draw: st.DrawFn, depth: int = 4, width: int = 4) -> dict[str, Entry]:
    """A random tree (depth <= `depth`), as a spec of unique sibling names."""
    names = draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=width))
    return {name: draw(entries(depth, width)) for name in names}


def paths(spec: dict[str, Entry], prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for name, (_, _, kids, _) in spec.items():
        yield (*prefix, name)
        yield from paths(kids, (*prefix, name))


def holder(spec: dict[str, Entry], parent: tuple[str, ...]) -> dict[str, Entry]:
    """The children spec of the node at `parent` (the top level for `()`)."""
    for name in parent:
        spec = spec[name][2]
    return spec


def copy_spec(spec: dict[str, Entry]) -> dict[str, Entry]:
    return {n: (t, val, copy_spec(k), f) for n, (t, val, k, f) in spec.items()}


@st.composite
def mutated(draw: st.DrawFn, spec: dict[str, Entry]) -> dict[str, Entry]:
    """`spec` after 1-4 edits: change a value, type or flags, add, remove, rename, reassign (`b = a; a = …`),
    or shift a list."""
    spec = copy_spec(spec)
    for _ in range(draw(st.integers(1, 4))):
        every = list(paths(spec))
        op = draw(st.sampled_from(("value", "type", "flags", "add", "remove", "rename", "reassign", "shift")))
        if op == "add" or not every:
            siblings = holder(spec, draw(st.sampled_from([(), *every])))
            free = [n for n in NAMES if n not in siblings]
            if free:
                siblings[draw(st.sampled_from(free))] = draw(entries(2, 2))
            continue
        path = draw(st.sampled_from(every))
        siblings, name = holder(spec, path[:-1]), path[-1]
        type_, value, kids, flags = siblings[name]
        if op == "value":
            siblings[name] = (type_, draw(VALUES), kids, flags)
        elif op == "type":
            siblings[name] = (draw(st.sampled_from(TYPES)), value, kids, flags)
        elif op == "flags":
            siblings[name] = (type_, value, kids, draw(FLAGS))
        elif op == "remove":
            del siblings[name]
        elif op in ("rename", "reassign"):
            free = [n for n in NAMES if n not in siblings]
            if free:
                siblings[draw(st.sampled_from(free))] = siblings.pop(name)
                if op == "reassign":
                    siblings[name] = draw(entries(2, 2))
        else:  # delete a list element and shift the later ones down, as `del xs[i]` does
            indices = sorted(int(n) for n in siblings if n.isdigit())
            if indices:
                gone = draw(st.sampled_from(indices))
                moved = {i: siblings.pop(str(i)) for i in indices if i >= gone}
                for i, entry in moved.items():
                    if i != gone:
                        siblings[str(i - 1)] = entry
    return spec


# pairs of trees: mostly one tree and an edit of it (shared ids), sometimes two unrelated trees
pairs = st.one_of(specs().flatmap(lambda s: st.tuples(st.just(s), mutated(s))), st.tuples(specs(), specs()))
