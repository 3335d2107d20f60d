"""Unit tests for snapshot diffs (`dap2mcp.snapshots.diff`): the PACT shape and seed 000's shape.

Fixed cases pin the outputs; hypothesis properties check that a diff of a tree with itself is
empty and that, for any two trees, the reported changes explain every difference.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given, settings

from dap2mcp.snapshots.diff import bounded, compare, pact, variables
from dap2mcp.snapshots.model import HEADER_FIELDS, Node, Snapshot, comparable

from snapshot_trees import T0, Entry, header, make, pairs, specs, v

SEED_OLD = {
    "retryCount": v("System.Int32", "2"),
    "order": v("Order", "{Order}", {
        "Customer": v("Customer", "{Customer}", {"City": v("System.String", '"Warsaw"'),
                                                 "Name": v("System.String", '"Ann"')}),
        "Id": v("System.Int32", "7")}),
    "status": v("System.String", '"ok"'),
}


def edit(spec: dict[str, Entry], path: str, entry: Entry | None) -> dict[str, Entry]:
    """A copy of `spec` with the node at dotted `path` replaced (or removed when `entry` is None)."""
    *parents, name = path.split(".")
    out = {n: (t, val, dict(k), f) for n, (t, val, k, f) in spec.items()}
    if parents:
        t, val, kids, f = out[parents[0]]
        out[parents[0]] = (t, val, edit(kids, ".".join([*parents[1:], name]), entry), f)
    elif entry is None:
        del out[name]
    else:
        out[name] = entry
    return out


def diff(old_spec: dict[str, Entry], new_spec: dict[str, Entry], **kwargs: Any) -> dict[str, Any]:
    return pact(compare(make(old_spec), make(new_spec, id="snap-b")), **kwargs)


# -- fixed cases -----------------------------------------------------------------------------------

def test_seed_example_in_both_shapes() -> None:
    new_spec = edit(edit(SEED_OLD, "retryCount", v("System.Int32", "3")), "order.Customer.City",
                    v("System.String", '"Krakow"'))
    new_spec["result"] = v("System.String", '"Success"')
    old = make(SEED_OLD, id="snap-aaa")
    new = make(new_spec, id="snap-bbb", timestamp=T0 + timedelta(seconds=5.23))
    delta = compare(old, new)
    assert variables(old, new, delta) == {
        "snapshotIdA": "snap-aaa",
        "snapshotIdB": "snap-bbb",
        "threadMismatch": False,
        "timeDelta": "00:00:05.230",
        "summary": {"added": 1, "removed": 0, "modified": 2, "unchanged": 5},
        "added": [{"name": "result", "path": "result", "type": "System.String", "value": '"Success"'}],
        "removed": [],
        "modified": [
            {"name": "City", "path": "order.Customer.City", "type": "System.String", "oldValue": '"Warsaw"',
             "newValue": '"Krakow"'},
            {"name": "retryCount", "path": "retryCount", "type": "System.Int32", "oldValue": "2", "newValue": "3"},
        ],
    }
    assert pact(delta) == {
        "added": ["result"],
        "removed": [],
        "changed": [{"id": "order", "fields": ["children"]}, {"id": "order.Customer", "fields": ["children"]},
                    {"id": "order.Customer.City", "fields": ["value"]}, {"id": "retryCount", "fields": ["value"]}],
    }


def test_unchanged_snapshots_give_an_empty_diff() -> None:
    old, new = make(SEED_OLD), make(SEED_OLD, id="snap-b", rng=random.Random(3))
    delta = compare(old, new)
    assert pact(delta) == {"added": [], "removed": [], "changed": []}
    out = variables(old, new, delta)
    assert out["summary"] == {"added": 0, "removed": 0, "modified": 0, "unchanged": 7}
    assert (out["added"], out["removed"], out["modified"]) == ([], [], [])
    assert out["timeDelta"] == "00:00:00.000"


def test_removed_subtree_is_one_entry_at_its_root_and_every_id_in_pact() -> None:
    """Issue 34 point 13: a subtree that went is one change; PACT still names each of its nodes (seed 002)."""
    old, new = make(SEED_OLD), make(edit(SEED_OLD, "order", None))
    delta = compare(old, new)
    assert pact(delta) == {"added": [], "changed": [],
                           "removed": ["order", "order.Customer", "order.Customer.City", "order.Customer.Name",
                                       "order.Id"]}
    out = variables(old, new, delta)
    assert out["summary"] == {"added": 0, "removed": 1, "modified": 0, "unchanged": 2}
    assert out["removed"] == [{"name": "order", "path": "order", "type": "Order", "value": "{Order}"}]


NESTED = {
    "d": v("dict", "{'k': [1, 2, 3], 'n': 0}", {
        "'k'": v("list", "[1, 2, 3]", {"0": v("int", "1"), "1": v("int", "2"), "2": v("int", "3")}),
        "'n'": v("int", "0")}),
    "o": v("Box", "<Box object at 0x7f3a5c2e1d90>", {"items": v("list", "[1]", {"0": v("int", "1")})}),
}


def test_one_element_changed_is_one_modified_entry_at_the_element() -> None:
    """Issue 34 point 13: `d["k"][2]` changed, and the dict's and the list's texts with it: one entry, the element."""
    new_spec = edit(NESTED, "d", v("dict", "{'k': [1, 2, 4], 'n': 0}", {
        "'k'": v("list", "[1, 2, 4]", {"0": v("int", "1"), "1": v("int", "2"), "2": v("int", "4")}),
        "'n'": v("int", "0")}))
    old, new = make(NESTED, run="r"), make(new_spec, id="snap-b", run="r")
    delta = compare(old, new)
    out = variables(old, new, delta)
    assert out["modified"] == [{"name": "2", "path": 'd["k"][2]', "type": "int", "oldValue": "3", "newValue": "4"}]
    assert out["summary"] == {"added": 0, "removed": 0, "modified": 1, "unchanged": 8}
    assert pact(delta)["changed"] == [{"id": "d", "fields": ["value", "children"]},
                                      {"id": 'd["k"]', "fields": ["value", "children"]},
                                      {"id": 'd["k"][2]', "fields": ["value"]}]


def test_an_item_appended_is_one_added_entry_not_also_its_list() -> None:
    new_spec = edit(NESTED, "o", v("Box", "<Box object at 0x7f3a5c2e1d90>", {
        "items": v("list", "[1, 2]", {"0": v("int", "1"), "1": v("int", "2")})}))
    old, new = make(NESTED, run="r"), make(new_spec, id="snap-b", run="r")
    out = variables(old, new, compare(old, new))
    assert (out["added"], out["modified"]) == ([{"name": "1", "path": "o.items[1]", "type": "int", "value": "2"}], [])


def test_another_object_at_another_address_is_a_change_beside_its_members() -> None:
    """Within one run an object replaced by another shows through its address: that is a change of its own."""
    new_spec = edit(NESTED, "o", v("Box", "<Box object at 0x7f00aaaabbbb>", {
        "items": v("list", "[5]", {"0": v("int", "5")})}))
    old, new = make(NESTED, run="r"), make(new_spec, id="snap-b", run="r")
    assert [m["path"] for m in variables(old, new, compare(old, new))["modified"]] == ["o", "o.items[0]"]


@pytest.mark.parametrize(("under", "paths"), [
    ("d", ['d["k"][2]']), ('d["k"]', ['d["k"][2]']), ('d["k"][2]', ['d["k"][2]']), ("o", ["o.items[0]"]),
    ("o.items", ["o.items[0]"]), ("", []), ("d.k", []), ("dd", ["dd"]), ('d["k"][1]', []),
])
def test_under_a_path_only_what_lies_there(under: str, paths: list[str]) -> None:
    """Issue 34 point 13: `path_prefix` narrows a diff to one subtree, by whole path segments."""
    changed = {**NESTED, "dd": v("int", "1")}
    changed = edit(changed, "d", v("dict", "{'k': [1, 2, 4], 'n': 0}", {
        "'k'": v("list", "[1, 2, 4]", {"0": v("int", "1"), "1": v("int", "2"), "2": v("int", "4")}),
        "'n'": v("int", "0")}))
    changed = edit(changed, "o", v("Box", "<Box object at 0x7f3a5c2e1d90>", {"items": v("list", "[2]", {"0": v("int", "2")})}))
    old, new = make({**NESTED, "dd": v("int", "0")}, run="r"), make(changed, id="snap-b", run="r")
    out = variables(old, new, compare(old, new, under))
    assert [m["path"] for m in out["modified"]] == paths and not out["added"] and not out["removed"]
    assert all(c["id"] == under or c["id"].startswith((under + ".", under + "["))
               for c in pact(compare(old, new, under))["changed"])


def test_added_child_changes_the_parent_by_its_children_only() -> None:
    new = edit(SEED_OLD, "order.Customer.Zip", v("str", "'00-950'"))
    assert diff(SEED_OLD, new) == {"added": ["order.Customer.Zip"], "removed": [],
                                   "changed": [{"id": "order", "fields": ["children"]},
                                               {"id": "order.Customer", "fields": ["children"]}]}


@pytest.mark.parametrize(("before", "after", "fields"), [
    (v("int", "1"), v("str", "'1'"), ["type", "value"]),
    (v("int", "1"), v("long", "1"), ["type"]),
    (v("int", "1"), v("int", "2"), ["value"]),
    (v("list", "[…]"), v("list", "[…]", flags=("truncated",)), ["flags"]),
    (v("P", "P", {"x": v("int", "1")}), v("Q", "P", {"x": v("int", "2")}), ["type", "children"]),
    (v("P", "P", {"x": v("int", "1")}), v("P", "P", {"y": v("int", "1")}), ["children"]),
])
def test_changed_fields_are_exactly_those_that_differ(before: Entry, after: Entry, fields: list[str]) -> None:
    out = diff({"n": before, "keep": v("int", "0")}, {"n": after, "keep": v("int", "0")})
    assert out["changed"][0] == {"id": "n", "fields": fields}


def test_type_change_reports_the_old_type_in_the_seed_shape() -> None:
    old, new = make({"n": v("int", "1")}), make({"n": v("str", "'1'")})
    assert variables(old, new, compare(old, new))["modified"] == [
        {"name": "n", "path": "n", "type": "str", "oldValue": "1", "newValue": "'1'", "oldType": "int"}]
    old, new = make({"n": v("int", "1")}), make({"n": v("int", "2")})
    assert "oldType" not in variables(old, new, compare(old, new))["modified"][0]


def test_child_only_change_is_not_a_modified_variable_in_the_seed_shape() -> None:
    old = make({"p": v("P", "P", {"x": v("int", "1")})})
    new = make({"p": v("P", "P", {"x": v("int", "2")})})
    out = variables(old, new, compare(old, new))
    assert [m["path"] for m in out["modified"]] == ["p.x"]
    assert out["summary"] == {"added": 0, "removed": 0, "modified": 1, "unchanged": 1}


def test_pact_order_follows_the_newer_snapshots_canonical_order() -> None:
    old = {"items": v("list", "[…]", {"0": v("int", "1"), "2": v("int", "2")}), "b": v("int", "1")}
    new = {"zeta": v("int", "0"), "b": v("int", "2"), "a": v("int", "0"),
           "items": v("list", "[…]", {"10": v("int", "5"), "3": v("int", "4"), "2": v("int", "2"), "0": v("int", "9")})}
    out = diff(old, new)
    assert out["added"] == ["a", "items[3]", "items[10]", "zeta"]
    assert [c["id"] for c in out["changed"]] == ["b", "items", "items[0]"]


def test_moved_list_elements_after_a_deletion() -> None:
    def item(name: str) -> Entry:
        return v("Item", f"Item({name})", {"name": v("str", f"'{name}'"), "qty": v("int", str(len(name)))})

    old = {"xs": v("list", "[…]", {"0": item("ab"), "1": item("cde"), "2": item("f")})}
    new = {"xs": v("list", "[…]", {"0": item("cde"), "1": item("f")})}
    out = diff(old, new)
    assert out["removed"] == ["xs[2]", "xs[2].name", "xs[2].qty"]
    assert sorted(out["moved"], key=lambda m: m["from"]) == [{"from": "xs[1]", "to": "xs[0]"},
                                                             {"from": "xs[2]", "to": "xs[1]"}]


def test_object_moved_to_a_new_name() -> None:
    cart = v("Cart", "Cart(2)", {"items": v("list", "[…]", {"0": v("str", "'tea'"), "1": v("str", "'jam'")})})
    out = diff({"cart": cart, "n": v("int", "1")}, {"saved": cart, "n": v("int", "1")})
    assert out["added"] == ["saved", "saved.items", "saved.items[0]", "saved.items[1]"]
    assert out["removed"] == ["cart", "cart.items", "cart.items[0]", "cart.items[1]"]
    assert out["moved"] == [{"from": "cart", "to": "saved"}]


def test_moved_is_outermost_only_when_the_old_path_is_reused() -> None:
    # archive = state; state = {}: the old state moved whole, nothing inside it is a separate move
    state = v("dict", "{'a': [1, 2]}", {"'a'": v("list", "[1, 2]", {"0": v("int", "1"), "1": v("int", "2")})})
    out = diff({"state": state}, {"state": v("dict", "{}"), "archive": state})
    assert out["moved"] == [{"from": "state", "to": "archive"}]


def test_a_changed_memory_address_alone_is_not_a_change_across_runs() -> None:
    old = {"o": v("Foo", "<Foo object at 0x7f3a5c2e1d90>", {"x": v("int", "1")})}
    assert diff(old, {"o": v("Foo", "<Foo object at 0x7f00aaaabbbb>", {"x": v("int", "1")})}) == {
        "added": [], "removed": [], "changed": []}
    assert diff(old, {"o": v("Foo", "<Foo object at 0x7f00aaaabbbb>", {"x": v("int", "2")})})["changed"] == [
        {"id": "o", "fields": ["children"]}, {"id": "o.x", "fields": ["value"]}]


def test_within_one_run_another_object_at_another_address_is_a_change() -> None:
    old = make({"o": v("Foo", "<Foo object at 0x7f3a5c2e1d90>", {"x": v("int", "1")})}, run="r1")
    new = make({"o": v("Foo", "<Foo object at 0x7f00aaaabbbb>", {"x": v("int", "1")})}, run="r1", id="snap-b")
    assert pact(compare(old, new))["changed"] == [{"id": "o", "fields": ["value"]}]
    assert variables(old, new, compare(old, new))["summary"] == {"added": 0, "removed": 0, "modified": 1,
                                                                 "unchanged": 1}
    elsewhere = make({"o": v("Foo", "<Foo object at 0x7f00aaaabbbb>", {"x": v("int", "1")})}, run="r2")
    assert pact(compare(old, elsewhere))["changed"] == []


def test_counters_that_all_went_up_are_not_moves() -> None:
    out = diff({f"v{i}": v("int", str(i)) for i in range(5)}, {f"v{i}": v("int", str(i + 1)) for i in range(5)})
    assert "moved" not in out and len(out["changed"]) == 5


def test_equal_content_in_two_places_is_not_a_move() -> None:
    assert "moved" not in diff({"a": v("int", "7")}, {"b": v("int", "7"), "c": v("int", "7")})
    assert "moved" not in diff({"a": v("int", "7"), "b": v("int", "7")}, {"c": v("int", "7")})


@pytest.mark.parametrize(("thread_a", "thread_b", "mismatch"), [(1, 1, False), (1, 2, True), (None, None, False),
                                                                (None, 3, True)])
def test_thread_mismatch(thread_a: int | None, thread_b: int | None, mismatch: bool) -> None:
    old, new = make(SEED_OLD, thread_id=thread_a), make(SEED_OLD, thread_id=thread_b)
    assert variables(old, new, compare(old, new))["threadMismatch"] is mismatch


def test_time_delta_is_negative_when_the_first_snapshot_is_newer() -> None:
    later = make(SEED_OLD, timestamp=T0 + timedelta(hours=1, minutes=2, seconds=3, milliseconds=40))
    earlier = make(SEED_OLD)
    assert variables(earlier, later, compare(earlier, later))["timeDelta"] == "01:02:03.040"
    assert variables(later, earlier, compare(later, earlier))["timeDelta"] == "-01:02:03.040"


def test_limits_cut_lists_and_say_so() -> None:
    old = make({"keep": v("int", "0")})
    new = make({"keep": v("int", "1"), "a": v("int", "1"), "b": v("int", "2"), "c": v("int", "3")})
    delta = compare(old, new)
    assert bounded(pact(delta), 2) == (
        {"added": ["a", "b"], "removed": [], "changed": [{"id": "keep", "fields": ["value"]}]}, {"added": 1})
    assert bounded(pact(delta), 3)[1] == {}
    out, omitted = bounded(variables(old, new, delta), 1)
    assert omitted == {"added": 2}
    assert [a["path"] for a in out["added"]] == ["a"]
    assert out["summary"] == {"added": 3, "removed": 0, "modified": 1, "unchanged": 0}
    assert bounded(variables(old, new, delta), 3)[1] == {}


def test_a_character_budget_cuts_lists_in_order_and_counts_what_it_left_out() -> None:
    """A thousand entries of long values made a 118 KB answer: the lists share one budget of characters."""
    old = make({f"v{i:03}": v("str", "'" + "a" * 900 + "'") for i in range(200)})
    new = make({f"v{i:03}": v("str", "'" + "b" * 900 + "'") for i in range(200)} | {"extra": v("int", "1")})
    out, omitted = bounded(variables(old, new, compare(old, new)), 1000, 20_000)
    assert out["added"] == [{"name": "extra", "path": "extra", "type": "int", "value": "1"}]
    assert 0 < len(out["modified"]) < 200 and omitted == {"modified": 200 - len(out["modified"])}
    assert len(json.dumps(out["added"] + out["modified"])) <= 20_000
    assert out["summary"]["modified"] == 200


# -- properties ----------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(specs())
def test_diff_of_a_tree_with_itself_is_empty(spec: dict[str, Entry]) -> None:
    a, b = make(spec), make(spec, id="snap-b", rng=random.Random(0))
    delta = compare(a, b)
    assert pact(delta) == {"added": [], "removed": [], "changed": []}
    assert variables(a, b, delta)["summary"] == {"added": 0, "removed": 0, "modified": 0,
                                                 "unchanged": len(a.nodes)}


def content(node: Node) -> tuple[Any, ...]:
    """A subtree as a diff across runs compares it: header fields, addresses masked, and children."""
    return header(node), tuple((c.id, content(c)) for c in node.children)


def children_key(node: Node) -> list[tuple[str, tuple[Any, ...]]]:
    return [(c.id, content(c)) for c in node.children]


def check_explains(a: Snapshot, b: Snapshot) -> None:
    old, new = a.nodes, b.nodes
    delta = compare(a, b)
    out = pact(delta)
    added, removed = out["added"], out["removed"]
    changed = {c["id"]: c["fields"] for c in out["changed"]}
    assert len(changed) == len(out["changed"]) and len(set(added)) == len(added) and len(set(removed)) == len(removed)

    # added only in b, removed only in a; everything else is either listed as changed or equal
    assert set(added) == new.keys() - old.keys()
    assert set(removed) == old.keys() - new.keys()
    assert set(changed) <= old.keys() & new.keys()
    for node_id in old.keys() & new.keys():
        before, after = old[node_id], new[node_id]
        if node_id not in changed:
            assert content(before) == content(after), node_id
            continue
        fields = changed[node_id]
        assert fields, node_id
        differing = [f for f, x, y in zip(HEADER_FIELDS, header(before), header(after), strict=True) if x != y]
        if children_key(before) != children_key(after):
            differing.append("children")
        assert fields == differing, node_id

    # order: the newer snapshot's canonical order
    assert added == [i for i in new if i in set(added)]
    assert list(changed) == [i for i in new if i in changed]

    # moves: same content, left one path for another, outermost only
    moved = out.get("moved", [])
    assert len({m["from"] for m in moved}) == len(moved) and len({m["to"] for m in moved}) == len(moved)
    for move in moved:
        assert move["from"] in old and move["to"] in new and move["from"] != move["to"]
        assert old[move["from"]].hash == new[move["to"]].hash
        assert move["from"] in removed or move["from"] in changed
        assert move["to"] in added or move["to"] in changed
        for other in moved:
            assert not move["from"].startswith((other["from"] + ".", other["from"] + "[")), (move, other)

    # seed 000's shape: replaying it on a's variables gives b's (a subtree added or removed whole at its root;
    # a container's text left as it was only where its children changed and its text shows more than an
    # address), and the counts add up
    seed = variables(a, b, delta)
    state = {i: (n.name, n.type, n.value) for i, n in old.items()}
    for entry in seed["removed"]:
        assert state.pop(entry["path"]) == (entry["name"], entry["type"], entry["value"])
        for inner in list(state):
            if inner.startswith((entry["path"] + ".", entry["path"] + "[")):
                del state[inner]
    for entry in seed["added"]:
        assert entry["path"] not in state
        state.update({n.id: (n.name, n.type, n.value) for n in new[entry["path"]].walk()})
    for entry in seed["modified"]:
        name, type_, value = state[entry["path"]]
        assert value == entry["oldValue"] and type_ == entry.get("oldType", entry["type"])
        state[entry["path"]] = (entry["name"], entry["type"], entry["newValue"])
    assert state.keys() == new.keys()
    for node_id, (name, type_, value) in state.items():
        if (name, type_, comparable(value)) != (new[node_id].name, new[node_id].type, comparable(new[node_id].value)):
            assert type_ == new[node_id].type and "children" in changed[node_id], node_id
            assert comparable(value) != comparable(new[node_id].value), node_id
    roots_added = [i for i in added if not any(a in set(added) for a in _above(i))]
    roots_removed = [i for i in removed if not any(r in set(removed) for r in _above(i))]
    summary = seed["summary"]
    assert summary["modified"] == len(seed["modified"]) <= sum(1 for f in changed.values() if set(f) - {"children"})
    assert sum(old[r["path"]].size for r in seed["removed"]) + summary["modified"] + summary["unchanged"] == len(old)
    assert sum(new[e["path"]].size for e in seed["added"]) + summary["modified"] + summary["unchanged"] == len(new)
    assert [e["path"] for e in seed["added"]] == roots_added and [e["path"] for e in seed["removed"]] == roots_removed
    assert (summary["added"], summary["removed"]) == (len(roots_added), len(roots_removed))


def _above(path: str) -> list[str]:
    """The paths above `path` in the trees of `snapshot_trees` (whose names hold no `.` or `[`)."""
    return [path[:i] for i, char in enumerate(path) if i and char in ".["]


@settings(max_examples=300, deadline=None)
@given(pairs)
def test_reported_changes_explain_every_difference(pair: tuple[dict[str, Entry], dict[str, Entry]]) -> None:
    a, b = make(pair[0]), make(pair[1], id="snap-b")
    check_explains(a, b)
    check_explains(b, a)
