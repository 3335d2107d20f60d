"""Cargo projects under real cargo and lldb-dap over stdio (tests/programs/cargo_shelf): `debug` mode `test`
runs a project's test binary and stops at the first failing test's panic, in its own frame; mode `source`
takes a Cargo project's directory and builds the binary asked for."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import PROGRAMS, locals_of, marker, stdio_tools

PROJECT = PROGRAMS / "cargo_shelf"
LIB = PROJECT / "src" / "lib.rs"
AUDIT = PROJECT / "src" / "bin" / "audit.rs"
BUILD = 240  # cargo builds the project first: far above the usual seconds, on a busy machine


def run_tests(**arguments):
    return {"mode": "test", "path": str(PROJECT), "timeout": BUILD, **arguments}


async def test_a_failing_assert_stops_in_the_test_with_the_panics_message_and_a_panic_deeper_where_it_was_raised():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests())
        # the tests run one at a time, in name order: a_missing_slot_is_out_of_range first
        assert ctx["state"] == "paused" and ctx["reason"] == "exception", ctx
        assert ctx["location"]["function"] == "shelf::Shelf::count_at"  # where the index was, not core::panicking
        assert ctx["location"]["line"] == marker(LIB, "index") and locals_of(ctx)["slot"] == "3"
        assert ctx["exception"]["message"] == "index out of bounds: the len is 1 but the index is 3"

        ctx = await tools.ok("continue")
        assert ctx["location"]["function"] == "shelf::tests::restock_adds_ten_per_crate", ctx
        assert ctx["location"]["line"] == marker(LIB, "assert_eq")
        assert ctx["exception"]["message"] == "assertion `left == right` failed\n  left: 6\n right: 22"
        assert locals_of(ctx)["expected"] == "22"
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 101, ended
        assert "test result: FAILED. 1 passed; 2 failed" in ended["output"]["text"]


async def test_the_filter_selects_by_name_and_restart_runs_the_same_tests_with_the_agents_breakpoint_first():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(test="restock"))
        assert ctx["location"]["function"] == "shelf::tests::restock_adds_ten_per_crate", ctx
        line = marker(LIB, "restock")
        await tools.ok("breakpoint", file=str(LIB), line=line)
        ctx = await tools.ok("restart")
        assert ctx["reason"] == "breakpoint" and ctx["location"]["line"] == line, ctx
        assert locals_of(ctx)["crates"] == "2"
        ctx = await tools.ok("continue")
        assert ctx["reason"] == "exception" and ctx["location"]["line"] == marker(LIB, "assert_eq"), ctx
        ended = await tools.ok("continue")
        assert "1 failed; 0 ignored; 0 measured; 2 filtered out" in ended["output"]["text"], ended


async def test_passing_tests_end_with_the_summary_and_a_filter_that_selects_nothing_says_so():
    async with stdio_tools() as tools:
        # the one test of tests/shelf_integration.rs (its own test binary, found by the filter), which reads
        # Cargo.toml from the directory it runs in: the project's, as under `cargo test`
        ended = await tools.ok("debug", **run_tests(test="integration"))
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert "test integration_count_at_reads_a_slot ... ok" in ended["output"]["text"]
        assert "test result: ok. 1 passed" in ended["output"]["text"] and "hint" not in ended

        ended = await tools.ok("debug", **run_tests(test="no_such_test"))
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert "no test ran: cargo test found no test to run" in ended["hint"] and "no_such_test" in ended["hint"]


async def test_mode_source_builds_the_binary_asked_for_into_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    project, cache = tmp_path / "shelf", tmp_path / "cache"
    shutil.copytree(PROJECT, project)
    before = sorted(p.name for p in project.rglob("*"))
    monkeypatch.setenv("DAP2MCP_CACHE", str(cache))  # the server's environment
    async with stdio_tools() as tools:
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(project), timeout=BUILD)
        assert "2 binaries: audit, shelf" in message and "`bin`" in message
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(project), bin="report")
        assert "no binary 'report'" in message and "audit, shelf" in message
        line = marker(AUDIT, "audit")
        ctx = await tools.ok("debug", mode="source", path=str(project), bin="audit", timeout=BUILD,
                             breakpoints=[{"file": str(project / "src" / "bin" / "audit.rs"), "line": line}])
        assert ctx["reason"] == "breakpoint" and ctx["location"]["function"] == "audit::main", ctx
        assert locals_of(ctx)["empty"] == "1"
        await tools.ok("stop")
    assert sorted(p.name for p in project.rglob("*")) == before  # no target/ beside the sources
    assert list((cache / "cargo").iterdir())


async def test_a_c_project_directory_is_refused_with_what_to_do(tmp_path: Path):
    (tmp_path / "main.c").write_text("int main(void) { return 0; }\n")
    (tmp_path / "Makefile").write_text("main: main.c\n\tcc -g -o main main.c\n")
    async with stdio_tools() as tools:
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(tmp_path))
        assert "make or CMake" in message and "mode 'binary'" in message
        (tmp_path / "Makefile").rename(tmp_path / "CMakeLists.txt")
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(tmp_path))
        assert "make or CMake" in message and "CMAKE_BUILD_TYPE=Debug" in message
        (tmp_path / "CMakeLists.txt").unlink()
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(tmp_path))
        assert "without Cargo.toml" in message
        assert "bin is for mode 'source'" in await tools.error("debug", "INVALID_ARGUMENT", **run_tests(bin="audit"))
        ended = await tools.ok("debug", **run_tests(test="integration"))  # still usable
        assert ended["exitCode"] == 0


async def test_stop_on_entry_stops_in_the_first_selected_test_not_in_the_harness_main():
    """lldb's entry was the test harness's generated `shelf::main`, shown at lib.rs line 1."""
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(test="restock"), stopOnEntry=True)
        assert ctx["state"] == "paused" and ctx["reason"] == "entry", ctx
        assert ctx["location"]["function"] == "shelf::tests::restock_adds_ten_per_crate"
        assert ctx["location"]["line"] == marker(LIB, "assert_eq") - 3  # its first line: `let mut shelf = ...`
        ctx = await tools.ok("debug", **run_tests(), stopOnEntry=True)  # tests run by name: this one first
        assert ctx["location"]["function"] == "shelf::tests::a_missing_slot_is_out_of_range", ctx  # not `vec!`'s
        ctx = await tools.ok("continue")
        assert ctx["reason"] == "exception" and ctx["location"]["function"] == "shelf::Shelf::count_at"
        await tools.ok("stop")


async def test_a_passing_run_names_the_test_binaries_cargo_test_would_run_next_and_the_hint_selects_one():
    """One session debugs one program, the first test binary with tests selected: the library's unit tests here.
    `cargo test count` would go on to tests/shelf_integration.rs; the passing run said nothing of it."""
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", **run_tests(test="count"))
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert "test tests::an_empty_shelf_counts_nothing ... ok" in ended["output"]["text"]
        hint = ended["hint"]
        assert "cargo test would go on to 1 more" in hint, hint
        assert "tests/shelf_integration.rs (1 test, e.g. integration_count_at_reads_a_slot)" in hint
        assert "`test`" in hint and "src/lib.rs" not in hint and "audit" not in hint  # no tests of theirs selected
        name = hint.split("e.g. ", 1)[1].split(")", 1)[0]
        ended = await tools.ok("debug", **run_tests(test=name))  # as the hint says
        assert ended["exitCode"] == 0 and f"test {name} ... ok" in ended["output"]["text"] and "hint" not in ended
