"""What changed in a struct or an array under lldb and gdb (issue 36 point 1): their own text (`{...}`) never
changes, so `changes` said nothing changed after `p.x = 10`; the previews a context shows are what is compared,
with the members they were made of where the adapter listed them (lldb), down to the field's path."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, marker, stdio_tools

C_PROGRAM = PROGRAMS / "changes.c"
RUST_PROGRAM = PROGRAMS / "changes.rs"

LLDB_FIELD = {"name": "x", "path": "p.x", "type": "int", "oldValue": "1", "newValue": "10"}
LLDB_ELEMENT = {"name": "[1]", "path": "arr[1]", "type": "int", "oldValue": "11", "newValue": "20"}
GDB_FIELD = {"name": "p", "type": "struct point", "oldValue": "{x = 1, y = 2}", "newValue": "{x = 10, y = 2}"}
GDB_ELEMENT = {"name": "arr", "type": "int [3]", "oldValue": "{10, 11, 12}", "newValue": "{10, 20, 12}"}


@pytest.mark.parametrize(("adapter", "field", "element"), [("lldb", LLDB_FIELD, LLDB_ELEMENT),
                                                           ("gdb", GDB_FIELD, GDB_ELEMENT)])
async def test_a_changed_field_and_element_are_in_changes_and_in_the_diff(adapter, field, element):
    async with stdio_tools() as tools:
        first = await tools.ok("debug", mode="source", path=str(C_PROGRAM), adapter=adapter,
                               breakpoints=[{"file": str(C_PROGRAM), "line": marker(C_PROGRAM, "field")}])
        assert first["location"]["line"] == marker(C_PROGRAM, "field"), first
        after_field = await tools.ok("step", mode="over")
        assert after_field["changes"]["modified"] == [field], after_field["changes"]
        after_element = await tools.ok("step", mode="over")
        assert after_element["changes"]["modified"] == [element], after_element["changes"]
        diff = (await tools.ok("snapshot_diff", snapshot_id_1=f"@c{first['cycle']}", snapshot_id_2="@t0"))["diff"]
        listed = [{"path": change["name"], **change} for change in (element, field)]  # a diff names every path
        assert diff["summary"]["modified"] == 2 and diff["modified"] == listed, (diff["summary"], diff["modified"])
        await tools.ok("stop")


async def test_a_rust_vectors_changed_element_is_in_changes():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(RUST_PROGRAM),
                       breakpoints=[{"file": str(RUST_PROGRAM), "line": marker(RUST_PROGRAM, "element")}])
        after = await tools.ok("step", mode="over")
        assert after["changes"]["modified"] == [
            {"name": "[1]", "path": "v[1]", "type": "int", "oldValue": "2", "newValue": "20"}], after["changes"]
        await tools.ok("stop")
