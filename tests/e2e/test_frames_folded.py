"""A stop's stack as an agent reads it (issue 36 point 8): the frames of a test harness and of the runtime below
the program's own are folded into `framesFolded` (a Rust test's step answered 4.9 KB, twenty frames of
`test::run_test` and `std::panicking`), `context {libraryFrames: true}` lists them, and a function name long with
template arguments is shortened (a C++ name of 300 characters came twice a frame), under lldb and gdb."""

from __future__ import annotations

import json

import pytest

from conftest import PROGRAMS, marker, stdio_tools

PROJECT = PROGRAMS / "cargo_shelf"
LIB = PROJECT / "src" / "lib.rs"
TEMPLATED = PROGRAMS / "templated.cpp"
NAME_CHARS = 100  # docs/limits.md: "a function name longer than 100 characters has its innermost template arguments shown as …"


async def test_a_rust_tests_harness_frames_are_folded_and_listed_on_request():
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="test", path=str(PROJECT), test="restock_adds_ten_per_crate", timeout=240,
                              breakpoints=[{"file": str(LIB), "line": marker(LIB, "assert_eq")}])
        assert stop["reason"] == "breakpoint", stop
        stepped = await tools.ok("step", mode="in")  # into Vec's index, from the test
        shown = [f["function"] for f in stepped["frames"]]
        assert shown[1:] == ["shelf::tests::restock_adds_ten_per_crate",
                             "shelf::tests::restock_adds_ten_per_crate::{{closure}}"], shown
        assert "Index" in shown[0] and stepped["framesFolded"] >= 10, stepped  # std's index, where the step went
        assert len(json.dumps(stepped)) < 2500, len(json.dumps(stepped))  # it was 4.9 KB, most of it the harness
        every = await tools.ok("context", libraryFrames=True)
        listed = [f["function"] for f in every["frames"]]
        assert listed[:3] == shown and len(listed) == 3 + stepped["framesFolded"], listed
        assert "test::run_test_in_process" in listed and "framesFolded" not in every, listed
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_a_long_template_name_is_shortened_readably(adapter):
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(TEMPLATED), adapter=adapter,
                              breakpoints=[{"file": str(TEMPLATED), "line": marker(TEMPLATED, "counted")}])
        name = stop["location"]["function"]
        assert name == stop["frames"][0]["function"] and len(name) <= NAME_CHARS, name
        assert "count_in<" in name and "…" in name and "std::map<" in name, name  # the outer names stay
        assert [f["function"] for f in stop["frames"]][1:] == ["main"], stop["frames"]
        assert (await tools.ok("evaluate", expression="key"))["value"].endswith('"a"')  # the frame still answers
        await tools.ok("stop")
