"""Unit tests for the pure snapshot model (`dap2mcp.snapshots.model`): paths, order, hashes."""

from __future__ import annotations

import random

import pytest

from dap2mcp.snapshots.model import (
    Node,
    child_path,
    comparable,
    format_delta,
    sibling_key,
)

from snapshot_trees import build, make, v

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
