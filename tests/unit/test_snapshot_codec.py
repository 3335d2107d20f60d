"""Unit tests for snapshot export and import (`dap2mcp.snapshots.codec`).

Export must be byte-stable (across calls, child input orders, dict orders and interpreter runs
with different hash seeds) and must not change the snapshot; import must reproduce the exported
bytes and reject anything malformed or changed after export, without producing a snapshot.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dap2mcp.snapshots import codec
from dap2mcp.snapshots.codec import SnapshotDataError, export, parse
from dap2mcp.snapshots.model import SPEC_VERSION, Node, Snapshot

from snapshot_trees import T0, Entry, make, specs, v

SPEC: dict[str, Entry] = {
    "order": v("Order", "Order(7)", {
        "Customer": v("Customer", "{…}", {"City": v("str", "'Kraków'"), "Name": v("str", "'Ann'")}),
        "items": v("list", "[…]", {"10": v("int", "5"), "2": v("int", "4"), "0": v("int", "3")}, ("truncated",)),
        "meta": v("dict", "{…}", {"'key'": v("str", "'val'"), "'a b'": v("int", "1")})}),
    "self": v("Node", "Node()", flags=("cycle",)),
    "total": v("float", "12.5"),
}


def reference(**meta: Any) -> Snapshot:
    return make(SPEC, **meta)


def canonical(document: Any) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state(snapshot: Snapshot) -> tuple[Any, ...]:
    nodes = [(n.id, n.name, n.type, n.value, n.flags, n.hash, n.size) for n in snapshot.nodes.values()]
    return (snapshot.metadata(), snapshot.roots, nodes)


# -- byte stability ------------------------------------------------------------------------------

def test_export_is_canonical_json_without_the_snapshot_id() -> None:
    snap = reference(id="snap-1234")
    text = export(snap)
    document = json.loads(text)
    assert canonical(document) == text
    assert "snap-1234" not in text
    assert "Kraków" in text and "\\u" not in text  # UTF-8 text, not ASCII escapes
    assert set(document) == {"spec_version", "cycle", "snapshot", "root"}
    assert document["spec_version"] == SPEC_VERSION
    assert document["snapshot"] == {"label": "snapshot-1", "timestamp": "2024-05-17T10:30:00.250+00:00",
                                    "threadId": 1, "frameIndex": 0, "functionName": "main",
                                    "variableCount": snap.variable_count, "depth": 3}
    assert document["root"]["id"] == "root"
    order = document["root"]["children"][0]
    assert [c["id"] for c in order["children"]] == ["order.Customer", "order.items", "order.meta"]
    assert [c["name"] for c in order["children"][1]["children"]] == ["0", "2", "10"]
    assert order["children"][1]["flags"] == ["truncated"]
    assert "flags" not in order["children"][0]
    assert json.loads(export(reference(truncated=True)))["snapshot"]["truncated"] is True


def test_export_twice_gives_the_same_bytes_and_does_not_change_the_snapshot() -> None:
    snap = reference()
    before = state(snap)
    first = export(snap)
    assert export(snap).encode() == first.encode()
    assert state(snap) == before


def test_export_ignores_the_id_and_the_order_children_and_dict_entries_were_given_in() -> None:
    text = export(reference())
    assert export(reference(id="snap-other")) == text
    reversed_spec = dict(reversed(SPEC.items()))
    assert export(make(reversed_spec)) == text
    for seed in range(20):
        assert export(make(SPEC, rng=random.Random(seed))) == text


BUILD = """
from datetime import datetime, timedelta, timezone
from dap2mcp.snapshots.codec import export
from dap2mcp.snapshots.model import Node, Snapshot, roots_in_order

NAMES = {"total", "count", "é", "'k'", "a b", "10", "2", "0", "zeta", "alpha", "x_1", "'ключ'"}

def build():
    # sets: their iteration order depends on the hash seed
    kids = [Node.build("state", n, "int", str(len(n)), flags={"truncated", "cycle"}) for n in NAMES]
    roots = [Node.build("", "state", "dict", "{…}", kids)] + [Node.build("", n, "str", repr(n)) for n in NAMES]
    moment = datetime(2024, 5, 17, 10, 30, 0, 250000, tzinfo=timezone(timedelta(hours=2)))
    return Snapshot(id="snap-x", label="ünï", timestamp=moment, thread_id=7, frame_index=1, function_name="main",
                    depth=3, cycle=4, roots=roots_in_order(roots))
"""

RUN = BUILD + """
import json, sys
sys.stderr.write(json.dumps(list(NAMES)))
sys.stdout.buffer.write(export(build()).encode("utf-8"))
"""


def test_export_bytes_are_the_same_in_fresh_interpreters_with_other_hash_seeds() -> None:
    here: dict[str, Any] = {}
    exec(BUILD, here)
    expected = export(here["build"]()).encode("utf-8")
    orders = set()
    for seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-c", RUN], env=env, capture_output=True, timeout=60, check=True)
        assert run.stdout == expected, f"PYTHONHASHSEED={seed}"
        orders.add(run.stderr)
    assert len(orders) > 1, "the hash seeds did not change set order, so this test proved nothing"


# -- round trip ----------------------------------------------------------------------------------

def test_import_round_trip_is_byte_identical_with_a_new_id() -> None:
    snap = reference(id="snap-a", thread_id=None, cycle=12, truncated=True)
    text = export(snap)
    back = parse(text, "snap-new", 1000)
    assert export(back) == text
    assert back.id == "snap-new"
    assert back.roots == snap.roots
    assert back.nodes == snap.nodes
    assert {**back.metadata(), "id": "snap-a"} == snap.metadata()
    assert back.truncated is True


def test_import_canonicalizes_layout_and_child_order() -> None:
    text = export(reference())
    document = json.loads(text)
    document["root"]["children"].reverse()
    document["root"]["children"][-1]["children"].reverse()
    assert export(parse(json.dumps(document, indent=2), "snap-new", 1000)) == text


def test_microseconds_are_cut_to_the_exported_milliseconds() -> None:
    text = export(reference(timestamp=T0 + timedelta(microseconds=999)))
    back = parse(text, "snap-new", 1000)
    assert back.timestamp == T0
    assert export(back) == text


# -- import rejects ------------------------------------------------------------------------------

def node(document: dict[str, Any], node_id: str) -> dict[str, Any]:
    stack = list(document["root"]["children"])
    while stack:
        item = stack.pop()
        if item["id"] == node_id:
            return item
        stack.extend(item["children"])
    raise KeyError(node_id)


def tamper(change: Callable[[dict[str, Any]], object]) -> str:
    document = json.loads(export(reference()))
    change(document)
    return canonical(document)


def setter(where: Callable[[dict[str, Any]], dict[str, Any]], key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: where(d).__setitem__(key, value)


def deleter(where: Callable[[dict[str, Any]], dict[str, Any]], key: str) -> Callable[[dict[str, Any]], None]:
    return lambda d: where(d).__delitem__(key)


def city(d: dict[str, Any]) -> dict[str, Any]:
    return node(d, "order.Customer.City")


def meta(d: dict[str, Any]) -> dict[str, Any]:
    return d["snapshot"]


def top(d: dict[str, Any]) -> dict[str, Any]:
    return d


BAD: dict[str, tuple[str | Callable[[dict[str, Any]], object], str]] = {
    "not json": ("{not json", "not JSON"),
    "empty": ("", "not JSON"),
    "truncated text": (export(reference())[:-1], "not JSON"),
    "a list": ("[]", "malformed"),
    "spec_version": (setter(top, "spec_version", "PACT/0.2.0"), "spec_version"),
    "changed value": (setter(city, "value", "'Warsaw'"), "content hash"),
    "changed type": (setter(city, "type", "bytes"), "content hash"),
    "added flag": (setter(city, "flags", ["cycle"]), "content hash"),
    "changed hash": (setter(city, "hash", "0" * 24), "content hash"),
    "removed child": (lambda d: node(d, "order.Customer")["children"].pop(), "content hash"),
    "changed id": (setter(city, "id", "order.Customer.Town"), "path"),
    "changed name": (setter(city, "name", "Town"), "path"),
    "changed root hash": (setter(lambda d: d["root"], "hash", "0" * 24), "root hash"),
    "changed root id": (setter(lambda d: d["root"], "id", "root-xyz"), "root"),
    "wrong variableCount": (setter(meta, "variableCount", 3), "variableCount"),
    "missing node field": (deleter(city, "hash"), "malformed"),
    "missing children": (deleter(city, "children"), "malformed"),
    "missing label": (deleter(meta, "label"), "malformed"),
    "missing root": (deleter(top, "root"), "malformed"),
    "extra node field": (setter(city, "ttl", 5), "malformed"),
    "extra top-level field": (setter(top, "id", "snap-a"), "malformed"),
    "extra metadata field": (setter(meta, "id", "snap-a"), "malformed"),
    "value not a string": (setter(city, "value", 5), "malformed"),
    "threadId a string": (setter(meta, "threadId", "1"), "malformed"),
    "threadId a boolean": (setter(meta, "threadId", True), "malformed"),
    "cycle a string": (setter(top, "cycle", "3"), "malformed"),
    "negative cycle": (setter(top, "cycle", -1), "malformed"),
    "frameIndex a float": (setter(meta, "frameIndex", 0.0), "malformed"),
    "children an object": (setter(city, "children", {}), "malformed"),
    "flags a string": (setter(city, "flags", "cycle"), "malformed"),
    "label null": (setter(meta, "label", None), "malformed"),
    "truncated a string": (setter(meta, "truncated", "yes"), "malformed"),
    "timestamp Z": (setter(meta, "timestamp", "2024-05-17T10:30:00.250Z"), "timestamp"),
    "timestamp without millis": (setter(meta, "timestamp", "2024-05-17T10:30:00+00:00"), "timestamp"),
    "timestamp in micros": (setter(meta, "timestamp", "2024-05-17T10:30:00.250000+00:00"), "timestamp"),
    "timestamp naive": (setter(meta, "timestamp", "2024-05-17T10:30:00.250"), "timestamp"),
    "timestamp with a space": (setter(meta, "timestamp", "2024-05-17 10:30:00.250+00:00"), "timestamp"),
    "timestamp not a date": (setter(meta, "timestamp", "yesterday"), "timestamp"),
    "timestamp a number": (setter(meta, "timestamp", 1715941800.25), "malformed"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_import_rejects(case: str) -> None:
    bad, why = BAD[case]
    text = bad if isinstance(bad, str) else tamper(bad)
    with pytest.raises(SnapshotDataError, match=why):
        parse(text, "snap-new", 1000)


def test_unchanged_reference_data_is_accepted() -> None:
    # the tampering above starts from data that imports fine, so each rejection is the tampering's
    assert export(parse(tamper(lambda d: None), "snap-new", 1000)) == export(reference())


def test_snapshot_data_error_is_a_value_error() -> None:
    assert issubclass(SnapshotDataError, ValueError)


def test_import_counts_nodes_against_max_nodes() -> None:
    text = export(reference())
    count = reference().variable_count
    assert parse(text, "snap-new", count).variable_count == count
    with pytest.raises(SnapshotDataError, match="more nodes"):
        parse(text, "snap-new", count - 1)


def chain(depth: int) -> Snapshot:
    ids = ["r" + ".a" * i for i in range(depth)]
    below: list[Node] = []
    for i in range(depth - 1, 0, -1):
        below = [Node.build(ids[i - 1], "a", "T", str(i), below)]
    return Snapshot(id="snap-deep", label="deep", timestamp=T0, thread_id=1, frame_index=0, function_name="f",
                    depth=depth, cycle=1, roots=(Node.build("", "r", "T", "0", below),))


def test_import_rejects_deep_nesting_and_accepts_moderate_depth() -> None:
    moderate = export(chain(40))
    assert export(parse(moderate, "snap-new", 10_000)) == moderate
    with pytest.raises(SnapshotDataError):
        parse(export(chain(300)), "snap-new", 10_000)
    with pytest.raises(SnapshotDataError, match="nested too deeply"):
        parse('{"root":' + "[" * 100_000 + "]" * 100_000 + "}", "snap-new", 10_000)


def test_import_rejects_oversized_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codec, "MAX_IMPORT_BYTES", 100)
    with pytest.raises(SnapshotDataError, match="larger than"):
        parse(export(reference()), "snap-new", 1000)


# -- properties ----------------------------------------------------------------------------------

OFFSETS = st.sampled_from([UTC, timezone(timedelta(hours=5, minutes=30)), timezone(timedelta(hours=-8))])
TIMESTAMPS = st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2100, 1, 1), timezones=OFFSETS).map(
    lambda t: t.replace(microsecond=t.microsecond // 1000 * 1000))


@st.composite
def snapshots(draw: st.DrawFn) -> Snapshot:
    return make(draw(specs()), label=draw(st.text(max_size=6)), timestamp=draw(TIMESTAMPS),
                thread_id=draw(st.none() | st.integers(-1, 2**40)), frame_index=draw(st.integers(0, 50)),
                function_name=draw(st.text(max_size=6)), depth=draw(st.integers(0, 10)),
                cycle=draw(st.integers(0, 10**9)), truncated=draw(st.booleans()))


@settings(max_examples=150, deadline=None)
@given(snapshots())
def test_export_parse_export_is_byte_identical(snap: Snapshot) -> None:
    text = export(snap)
    back = parse(text, "snap-new", 10_000)
    assert export(back) == text
    assert back.roots == snap.roots
    assert {**back.metadata(), "id": snap.id} == snap.metadata()


@settings(max_examples=100, deadline=None)
@given(specs(), st.randoms(use_true_random=False))
def test_export_does_not_depend_on_child_input_order(spec: dict[str, Entry], rng: random.Random) -> None:
    assert export(make(spec, rng=rng)) == export(make(spec))


@settings(max_examples=100, deadline=None)
@given(specs().filter(bool), st.data())
def test_any_changed_value_is_rejected(spec: dict[str, Entry], data: st.DataObject) -> None:
    snap = make(spec)
    target = data.draw(st.sampled_from(list(snap.nodes)))
    new_value = data.draw(st.text(max_size=4).filter(lambda s: s != snap.nodes[target].value))
    with pytest.raises(SnapshotDataError):
        parse(tamper_snapshot(snap, target, new_value), "snap-new", 10_000)


def tamper_snapshot(snap: Snapshot, node_id: str, value: str) -> str:
    document = json.loads(export(snap))
    node(document, node_id)["value"] = value
    return canonical(document)
