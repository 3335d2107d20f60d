"""Issue 34 points 13 and 15, on a real debugpy session: snapshots leave methods out of an object's state, a diff
lists each change once where it happened (and narrows to a path), and `evaluate` says which nested parts its
answer leaves out and how to expand them (`depth`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import PROGRAMS, marker, stdio_tools

NESTED = PROGRAMS / "nested_state.py"
METHODS = {"method", "builtin_function_or_method", "method-wrapper", "function"}


def at(program: Path, name: str) -> dict[str, object]:
    return {"file": str(program), "line": marker(program, name)}


def without_helper(tmp_path: Path) -> Path:
    """The program with a local named `locals`, so that snapshots are read request by request, not by the helper."""
    copy = tmp_path / "nested_state.py"
    copy.write_text(NESTED.read_text().replace('    worker = Worker("w1")\n',
                                               '    locals = None\n    worker = Worker("w1")\n'))
    return copy


def nodes(node: dict[str, Any]) -> list[dict[str, Any]]:
    return [node, *(inner for child in node.get("children", []) for inner in nodes(child))]


async def two_snapshots(tools, program: Path) -> tuple[str, str]:
    await tools.ok("debug", mode="source", path=str(program), breakpoints=[at(program, "first")])
    first = (await tools.ok("snapshot_create", depth=3))["snapshot"]["id"]
    await tools.ok("continue", to=at(program, "second"))
    second = (await tools.ok("snapshot_create", depth=3))["snapshot"]["id"]
    return first, second


@pytest.mark.parametrize("helper", [True, False], ids=["helper", "requests"])
async def test_methods_are_not_an_objects_state(tmp_path, helper):
    """An asyncio diff held bound and built-in methods as children, each carrying its owner's text."""
    program = NESTED if helper else without_helper(tmp_path)
    async with stdio_tools() as tools:
        first, second = await two_snapshots(tools, program)
        pages, offset = [], 0  # an export of this size comes in pages (docs/snapshots.md)
        while True:
            page = await tools.ok("snapshot_export", snapshot_id=second, offset=offset)
            pages.append(page["data"])
            if not page.get("truncated"):
                break
            offset = page["nextOffset"]
        data = json.loads("".join(pages))
        found = {n["id"]: n for n in nodes(data["root"])}
        methods = [i for i, n in found.items() if n.get("type") in METHODS]
        assert methods == ['handlers["done"]'], methods  # an item of a dict is data, whatever it holds
        assert "worker._on_item" not in found and "worker.queue" in found and "worker.done" in found
        assert "task._fut_waiter" in found and not any(i.startswith("task._fut_waiter._make") for i in found)
        diff = (await tools.ok("snapshot_diff", snapshot_id_1=first, snapshot_id_2=second))["diff"]
        changed = [*diff["added"], *diff["removed"], *diff["modified"]]
        assert not [e for e in changed if e["type"] in METHODS], changed


async def test_one_entry_per_change_at_the_leaf_that_changed():
    """`grid["k"][2] = 4` changed the dict's text and the list's too: one entry, the element's."""
    async with stdio_tools() as tools:
        first, second = await two_snapshots(tools, NESTED)
        diff = (await tools.ok("snapshot_diff", snapshot_id_1=first, snapshot_id_2=second))["diff"]
        modified = [m["path"] for m in diff["modified"]]
        assert 'grid["k"][2]' in modified and "grid" not in modified and 'grid["k"]' not in modified, modified
        assert next(m for m in diff["modified"] if m["path"] == 'grid["k"][2]') == {
            "name": "2", "path": 'grid["k"][2]', "type": "int", "oldValue": "3", "newValue": "4"}
        assert "worker.done" not in modified  # the item appended is the change
        assert [a["path"] for a in diff["added"]] == ["worker.done[1]"]
        assert diff["summary"]["modified"] == len(diff["modified"]) and diff["summary"]["added"] == 1

        pact = (await tools.ok("snapshot_diff", snapshot_id_1=first, snapshot_id_2=second, format="pact"))["diff"]
        fields = {c["id"]: c["fields"] for c in pact["changed"]}
        assert fields["grid"] == fields['grid["k"]'] == ["value", "children"]  # seed 002: every node that differs
        assert fields['grid["k"][2]'] == ["value"] and "worker.done[1]" in pact["added"]


async def test_path_prefix_narrows_a_diff_by_whole_steps():
    async with stdio_tools() as tools:
        first, second = await two_snapshots(tools, NESTED)

        async def under(prefix: str, form: str = "variables") -> dict[str, Any]:
            return await tools.ok("snapshot_diff", snapshot_id_1=first, snapshot_id_2=second, path_prefix=prefix,
                                  format=form)

        grid = (await under("grid"))["diff"]
        assert [m["path"] for m in grid["modified"]] == ['grid["k"][2]'] and grid["added"] == []
        assert grid["summary"]["modified"] == 1
        assert [m["path"] for m in (await under('grid["k"][2]'))["diff"]["modified"]] == ['grid["k"][2]']
        worker = (await under("worker"))["diff"]
        assert [a["path"] for a in worker["added"]] == ["worker.done[1]"] and worker["modified"] == []
        assert (await under("grid", "pact"))["diff"]["changed"][0]["id"] == "grid"
        missed = await under("gri")  # a prefix of a name is not a step of a path
        assert missed["diff"]["modified"] == [] and "neither snapshot holds `gri`" in missed["warning"]


async def test_evaluate_says_what_its_answer_leaves_out_and_expands_by_depth():
    """`[[...], [...]]` came with no flag: the answer names the parts cut and how to see them."""
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(NESTED), breakpoints=[at(NESTED, "first")])
        flat = await tools.ok("evaluate", expression="grid")
        assert "[[...], [...]]" in flat["value"] and flat["leftOut"] == ["grid"] and "children" not in flat
        assert '{"expression": "grid", "depth": 1}' in flat["expand"]

        one = await tools.ok("evaluate", expression="grid", depth=1)
        assert one["value"] == flat["value"]
        assert [(c["name"], c["value"]) for c in one["children"]] == [
            ("'k'", "[1, 2, 3]"), ("'rows'", "[[[...], [...]], [[...]]]"), ("'n'", "0")]
        assert one["leftOut"] == ["grid['rows']"] and '"depth": 2' in one["expand"]

        two = await tools.ok("evaluate", expression="grid", depth=2)
        rows = next(c for c in two["children"] if c["name"] == "'rows'")
        assert [(c["name"], c["value"]) for c in rows["children"]] == [("0", "[[1, 2], [3]]"), ("1", "[[4]]")]
        assert "leftOut" not in two and "expand" not in two

        part = await tools.ok("evaluate", expression=one["leftOut"][0], depth=1)  # an expression as given
        assert [c["value"] for c in part["children"]] == ["[[1, 2], [3]]", "[[4]]"] and "leftOut" not in part

        worker = await tools.ok("evaluate", expression="worker", depth=1)
        assert (await tools.ok("evaluate", expression="worker"))["leftOut"] == ["worker"]  # `<… object at 0x…>`
        assert {c["name"] for c in worker["children"]} == {"done", "name", "queue"}  # no methods
        assert "leftOut" not in await tools.ok("evaluate", expression="grid['k']")  # nothing cut
        await tools.error("evaluate", "INVALID_ARGUMENT", expression="grid", depth=6)

        wide = await tools.ok("evaluate", expression="list(range(120))", depth=1)  # 50 members a value at most
        assert [c["value"] for c in wide["children"]] == [str(i) for i in range(50)]
        assert wide["leftOut"] == ["list(range(120))"] and "a slice" in wide["expand"]
