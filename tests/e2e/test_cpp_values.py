"""What C++'s vocabulary types read as (issue 36 point 5), on tests/programs/vocabulary.cpp: under lldb through
dap2mcp's formatters (`adapters/_lldb_formatters.py`), which show what an optional, a variant or a smart pointer
holds where lldb 19 showed ` Has Value=true `, ` Active Type = int ` or an address; under gdb through its own
pretty printers, with what a smart pointer owns, the same text at a stop and by `evaluate`."""

from __future__ import annotations

import re

from conftest import PROGRAMS, locals_of, marker, stdio_tools

VOCABULARY = PROGRAMS / "vocabulary.cpp"

LLDB_SHOWN = {
    "age": "42", "none": "nullopt", "name": '"ada"',  # ` Has Value=true `, ` Has Value=false `
    "choice": "7 (int)",  # ` Active Type = int `
    "unique": '0x… {x: 1, y: 2, label: "u"}',  # the pointee's fields, not `{pointer: 0x…}`
    "shared": '0x… {x: 3, y: 4, label: "s"} (use_count=1, weak_count=0)',  # `element_type @ 0x…`
    "number": "0x… 5",
}
LLDB_EVALUATED = {
    "*age": "42", "age.value()": "42",  # value() is inlined: lldb could not call it
    "*name": '"ada"', "name.value()": '"ada"',  # lldb-dap 19 crashed laying out GCC 12's std::string for *name
    "node.weight": "2.5", "*node.weight": "2.5", "node.tag": '"seven" (std::basic_string<char>)',
    "*unique": '{x: 1, y: 2, label: "u"}', "unique->label": '"u"', "*shared": '{x: 3, y: 4, label: "s"}',
    "*number": "5", "node.next": "0x… {id: 2, next: nullptr, weight: nullopt, tag: 0 (int), empty: nullptr}",
    "node.empty": "nullptr",
}


def without_addresses(value: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]{6,16}", "0x…", value)


async def test_lldb_shows_what_an_optional_a_variant_and_a_smart_pointer_hold() -> None:
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(VOCABULARY), adapter="lldb",
                             breakpoints=[{"file": str(VOCABULARY), "line": marker(VOCABULARY, "held")}])
        local = {name: without_addresses(value) for name, value in locals_of(ctx).items()}
        assert {name: local[name] for name in LLDB_SHOWN} == LLDB_SHOWN
        evaluated = {name: without_addresses((await tools.ok("evaluate", expression=name))["value"])
                     for name in LLDB_EVALUATED}
        assert evaluated == LLDB_EVALUATED
        # an optional's value is its child, read from its memory: set-variable writes it
        assert (await tools.ok("set-variable", name="age.value", value="5"))["value"] == "5"
        assert (await tools.ok("evaluate", expression="age"))["value"] == "5"
        assert (await tools.ok("evaluate", expression="*age"))["value"] == "5"
        # an empty one has no value to set, and says so
        refused = await tools.error("set-variable", "INVALID_ARGUMENT", name="none.value", value="1")
        assert "'none' has no field 'value'" in refused, refused
        await tools.ok("stop")


async def test_gdb_shows_a_value_the_same_at_a_stop_and_by_evaluate() -> None:
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(VOCABULARY), adapter="gdb", timeout=60,
                             breakpoints=[{"file": str(VOCABULARY), "line": marker(VOCABULARY, "held")}])
        local = locals_of(ctx)
        assert local["age"] == "std::optional<int> = {[contained value] = 42}", local
        assert local["choice"] == "std::variant<int, std::string> [index 0] = {7}", local
        # libstdc++'s printers give a smart pointer's address alone; what it owns is printed after it
        assert without_addresses(local["unique"]) == 'std::unique_ptr<Point> = {get() = 0x…} -> {x = 1, y = 2, label = "u"}'
        assert without_addresses(local["shared"]) == ('std::shared_ptr<Point> (use count 1, weak count 0) = {get() = 0x…} '
                                                      '-> {x = 3, y = 4, label = "s"}')
        assert without_addresses(local["number"]) == "std::unique_ptr<int> = {get() = 0x…} -> 5"
        assert (await tools.ok("evaluate", expression="node.empty"))["value"] == "std::shared_ptr<int> (empty) = {get() = 0x0}"
        for name, shown in local.items():
            assert (await tools.ok("evaluate", expression=name))["value"] == shown, name
        await tools.ok("stop")
