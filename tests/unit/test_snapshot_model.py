"""Unit tests for the pure snapshot model (`dap2mcp.snapshots.model`) and the snapshot store.

No debugger is involved: trees are built from small literal specs. The spec helpers and the
hypothesis strategies defined here (random trees, and mutations of a tree that keep most ids)
are shared with test_snapshot_diff.py and test_snapshot_codec.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import strategies as st

from dap2mcp.errors import DebugError, ErrorCode
from dap2mcp.snapshots import store as store_module
from dap2mcp.snapshots.model import (
    Node,
    Snapshot,
    child_path,
    comparable,
    format_delta,
    roots_in_order,
    sibling_key,
)
from dap2mcp.snapshots.store import SnapshotStore

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


# -- paths and canonical order -------------------------------------------------------------------

@pytest.mark.parametrize(("parent", "name", "path"), [
    ("", "order", "order"),
    ("", "'k'", "'k'"),
    ("order", "Customer", "order.Customer"),
    ("order.Customer", "City", "order.Customer.City"),
    ("items", "3", "items[3]"),
    ("items", "-1", "items[-1]"),
    ("items", "[3]", "items[3]"),
    ("map", "'key'", 'map["key"]'),
    ("map", '"key"', 'map["key"]'),
    ("map", "'ключ'", 'map["ключ"]'),
    ("map", "'say \"hi\"'", 'map["say \\"hi\\""]'),
    ("map", "(1, 2)", "map[(1, 2)]"),
    ("obj", "special variables", "obj[special variables]"),
    ("obj", "[[Prototype]]", "obj[[Prototype]]"),
])
def test_child_path(parent: str, name: str, path: str) -> None:
    assert child_path(parent, name) == path


def test_nested_node_ids_are_paths_from_the_frame() -> None:
    snap = make({"order": v("Order", "{…}", {"Customer": v("Customer", "{…}", {"City": v("str", "'Warsaw'")})}),
                 "items": v("list", "[…]", {"3": v("int", "7")}),
                 "map": v("dict", "{…}", {"'key'": v("int", "1")})})
    assert list(snap.nodes) == ["items", "items[3]", "map", 'map["key"]', "order", "order.Customer",
                                "order.Customer.City"]
    assert snap.nodes["order.Customer.City"].name == "City"
    assert snap.nodes['map["key"]'].name == "'key'"


def test_sibling_order_puts_indices_first_numerically_then_names() -> None:
    names = ["b", "10", "2", "a", "0", "[1]", "B", "-1"]
    assert sorted(names, key=sibling_key) == ["-1", "0", "[1]", "2", "10", "B", "a", "b"]


def test_build_sorts_children_and_flags_whatever_order_they_come_in() -> None:
    kids = {"10": v("int", "10"), "2": v("int", "2"), "b": v("int", "b"), "0": v("int", "0")}
    reference = Node.build("", "xs", "list", "[…]", build(kids, "xs"), ["truncated", "cycle"])
    assert [k.name for k in reference.children] == ["0", "2", "10", "b"]
    assert reference.flags == ("cycle", "truncated")
    rng = random.Random(7)
    for _ in range(20):
        again = Node.build("", "xs", "list", "[…]", build(kids, "xs", rng), rng.sample(["truncated", "cycle"], 2))
        assert again == reference


def test_build_records_size_and_deduplicates_flags() -> None:
    node = Node.build("", "t", "T", "v", build({"a": v("A", "1", {"b": v("B", "2")}), "c": v("C", "3")}, "t"),
                      ["cycle", "cycle"])
    assert node.size == 4
    assert node.flags == ("cycle",)
    assert [n.id for n in node.walk()] == ["t", "t.a", "t.a.b", "t.c"]


def test_hash_ignores_the_nodes_own_name_and_position() -> None:
    kids = {"x": v("int", "1")}
    here = Node.build("", "a", "Point", "P", build(kids, "a"))
    there = Node.build("deep.down", "b", "Point", "P", build(kids, "deep.down.b"))
    assert here.hash == there.hash
    assert here.id != there.id


@pytest.mark.parametrize("other", [
    Node.build("", "a", "Point", "Q", [Node.build("a", "x", "int", "1")]),  # value
    Node.build("", "a", "Pt", "P", [Node.build("a", "x", "int", "1")]),  # type
    Node.build("", "a", "Point", "P", [Node.build("a", "x", "int", "1")], ["cycle"]),  # flags
    Node.build("", "a", "Point", "P", [Node.build("a", "y", "int", "1")]),  # a child's name
    Node.build("", "a", "Point", "P", [Node.build("a", "x", "int", "2")]),  # a child's value
    Node.build("", "a", "Point", "P", []),  # a child fewer
    Node.build("", "a", "PointP", "", [Node.build("a", "x", "int", "1")]),  # same characters, other split
])
def test_hash_covers_type_value_flags_and_children(other: Node) -> None:
    assert Node.build("", "a", "Point", "P", [Node.build("a", "x", "int", "1")]).hash != other.hash


@pytest.mark.parametrize(("value", "masked"), [
    ("<Foo object at 0x7f3a5c2e1d90>", "<Foo object at 0x…>"),
    ("<function main at 0x7f3a5c2e1d90>", "<function main at 0x…>"),
    ("[<A object at 0x7f01>, <B object at 0x7f02>]", "[<A object at 0x…>, <B object at 0x…>]"),
    ("(*main.T)(0xc000012345)", "(*main.T)(0xc000012345)"),  # a pointer's value is the state itself
    ("0x00005555555592a0", "0x00005555555592a0"),
    ("<Foo at 0x1f>", "<Foo at 0x1f>"),  # too short to be an address
    ("plain", "plain"),
])
def test_comparable_masks_memory_addresses(value: str, masked: str) -> None:
    assert comparable(value) == masked


def test_hash_covers_the_whole_value_addresses_included() -> None:
    a = Node.build("", "o", "Foo", "<Foo object at 0x7f3a5c2e1d90>")
    assert a.hash != Node.build("", "o", "Foo", "<Foo object at 0x7f00aaaabbbb>").hash  # masked only by compare


def test_snapshot_nodes_are_flat_in_canonical_preorder_and_metadata_matches() -> None:
    snap = make({"z": v("int", "1"), "a": v("A", "{…}", {"k": v("int", "2"), "1": v("int", "3")})},
                id="snap-1", label="before", thread_id=None, frame_index=2, function_name="f", depth=4, cycle=9)
    assert list(snap.nodes) == ["a", "a[1]", "a.k", "z"]
    assert snap.variable_count == 4
    assert snap.metadata() == {"id": "snap-1", "label": "before", "timestamp": "2024-05-17T10:30:00.250+00:00",
                               "threadId": None, "frameIndex": 2, "functionName": "f", "variableCount": 4,
                               "depth": 4, "cycle": 9}


def test_a_duplicated_id_keeps_the_first_node_in_canonical_order() -> None:
    # a top-level name is its own path, so the root "a.b" and the child "b" of root "a" share an id
    snap = make({"a.b": v("int", "1"), "a": v("A", "{…}", {"b": v("int", "2")})})
    assert [n.id for n in snap.roots] == ["a", "a.b"]
    assert snap.nodes["a.b"].value == "2"
    assert snap.variable_count == 2


@pytest.mark.parametrize(("seconds", "text"), [
    (0, "00:00:00.000"),
    (5.23, "00:00:05.230"),
    (1.1, "00:00:01.100"),
    (3723.4567, "01:02:03.457"),
    (59.9996, "00:01:00.000"),
    (100 * 3600, "100:00:00.000"),
    (-1.5, "-00:00:01.500"),
    (-3723.4567, "-01:02:03.457"),
    (-0.0004, "00:00:00.000"),  # rounds to zero: no sign on a zero
])
def test_format_delta(seconds: float, text: str) -> None:
    assert format_delta(seconds) == text


# -- the store -----------------------------------------------------------------------------------

def stop(cycle: int, nodes: int = 1) -> Snapshot:
    spec = {f"v{i}": v("int", str(cycle)) for i in range(nodes)}
    return make(spec, id=f"snap-stop-{cycle}", cycle=cycle, timestamp=T0 + timedelta(seconds=cycle), auto=True)


def saved(n: int) -> Snapshot:
    return make({"x": v("int", str(n))}, id=f"snap-saved-{n}", label=f"snapshot-{n}")


def not_found(ref: str) -> str:
    return f"Snapshot '{ref}' not found. It may have been deleted or the session may have been disconnected."


def test_stop_references_resolve_relative_absolute_and_by_id() -> None:
    store = SnapshotStore()
    for cycle in range(1, 6):
        store.record_stop(stop(cycle))
    assert store.get("@t0").cycle == 5
    assert store.get(" @t0 ").cycle == 5
    assert store.get("@t-1").cycle == 4
    assert store.get("@t-4").cycle == 1
    assert store.get("@c3").cycle == 3
    assert store.get("snap-stop-2").cycle == 2
    store.save(saved(1))
    assert store.get("snap-saved-1").id == "snap-saved-1"


def test_before_any_stop_relative_references_say_so() -> None:
    with pytest.raises(DebugError) as caught:
        SnapshotStore().get("@t0")
    assert caught.value.code == ErrorCode.SNAPSHOT_NOT_FOUND
    assert caught.value.message.startswith(not_found("@t0"))
    assert "has not stopped yet" in caught.value.message


@pytest.mark.parametrize("ref", ["snap-nope", "@t-5", "@c0", "@c99", "@t1", "@t-0", "t0", ""])
def test_unknown_references_are_not_found(ref: str) -> None:
    store = SnapshotStore()
    for cycle in range(1, 6):
        store.record_stop(stop(cycle))
    with pytest.raises(DebugError) as caught:
        store.get(ref)
    assert caught.value.code == ErrorCode.SNAPSHOT_NOT_FOUND
    assert caught.value.message.startswith(not_found(ref))


def test_stops_beyond_the_last_100_are_evicted_and_the_error_names_the_kept_range() -> None:
    store = SnapshotStore()
    for cycle in range(1, 106):
        store.record_stop(stop(cycle))
    assert len(store.stops) == 100
    assert store.get("@c6").cycle == 6
    assert store.get("@t-99").cycle == 6
    for ref in ("@c5", "@t-100", "snap-stop-1"):
        with pytest.raises(DebugError) as caught:
            store.get(ref)
        assert caught.value.code == ErrorCode.SNAPSHOT_NOT_FOUND
        assert caught.value.message.startswith(not_found(ref))
    with pytest.raises(DebugError) as caught:
        store.get("@c5")
    assert "last 100 stops (now @c6 to @c105)" in caught.value.message


def test_stop_ring_also_evicts_by_node_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "STOP_NODE_BUDGET", 10)
    store = SnapshotStore()
    for cycle in range(1, 5):
        store.record_stop(stop(cycle, nodes=4))
    assert list(store.stops) == [3, 4]
    store.record_stop(stop(4, nodes=4))  # the same cycle again replaces, it does not double count
    assert list(store.stops) == [3, 4]


def test_soft_limit_warns_from_the_100th_save_and_hard_limit_refuses_the_501st() -> None:
    store = SnapshotStore()
    warnings = [store.save(saved(n)) for n in range(1, 101)]
    assert warnings[:99] == [None] * 99
    assert warnings[99] == "Snapshot count (100) has reached the soft limit. Consider deleting old snapshots."
    for n in range(101, 501):
        store.save(saved(n))
    assert len(store.saved) == 500
    with pytest.raises(DebugError) as caught:
        store.save(saved(501))
    assert caught.value.code == ErrorCode.SNAPSHOT_LIMIT
    assert len(store.saved) == 500
    assert "snap-saved-501" not in store.saved
    store.delete("snap-saved-1")
    store.save(saved(501))
    assert len(store.saved) == 500


def test_saved_node_budget_is_a_limit_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "SAVED_NODE_BUDGET", 2)
    store = SnapshotStore()
    store.save(saved(1))
    store.save(saved(2))
    with pytest.raises(DebugError) as caught:
        store.save(saved(3))
    assert caught.value.code == ErrorCode.SNAPSHOT_LIMIT
    store.delete(None)
    store.save(saved(3))


def test_delete_one_all_and_unknown() -> None:
    store = SnapshotStore()
    for n in range(1, 4):
        store.save(saved(n))
    store.record_stop(stop(1))
    store.record_stop(stop(2))
    assert store.delete("snap-saved-2") == ("snap-saved-2", 2)
    with pytest.raises(DebugError) as caught:
        store.get("snap-saved-2")
    assert caught.value.message.startswith(not_found("snap-saved-2"))
    for ref in ("@t0", "@c1", "snap-stop-1"):  # stop snapshots are the run's record: one per stop, kept
        with pytest.raises(DebugError) as caught:
            store.delete(ref)
        assert caught.value.code == ErrorCode.INVALID_ARGUMENT
    assert store.get("@t0").cycle == 2 and store.get("@t-1").cycle == 1
    for ref in ("snap-saved-2", "@c3", "bogus"):
        with pytest.raises(DebugError) as caught:
            store.delete(ref)
        assert caught.value.code == ErrorCode.SNAPSHOT_NOT_FOUND
        assert caught.value.message == f"Snapshot '{ref}' not found."
    assert store.delete(None) == ("all", 0)
    assert store.saved == {}
    assert store.get("@t0").cycle == 2  # deleting all saved snapshots keeps the stop snapshots


def test_store_labels_count_on_from_carried_snapshots() -> None:
    store = SnapshotStore([saved(1), saved(2)])
    assert store.next_label() == "snapshot-3"
    store.save(saved(3))
    assert store.next_label() == "snapshot-4"
    assert store.get("snap-saved-1").id == "snap-saved-1"


def test_timestamps_with_offsets_keep_their_offset_in_metadata() -> None:
    moment = datetime(2024, 1, 2, 3, 4, 5, 6000, tzinfo=timezone(timedelta(hours=5, minutes=30)))
    assert make({}, timestamp=moment).metadata()["timestamp"] == "2024-01-02T03:04:05.006+05:30"
