"""Rust under lldb-dap, on programs shaped like real code: the values its enums hold, a value the toolchain's
formatters cannot read in time, and panics."""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from conftest import PROGRAMS, cmdline_of, code_at, locals_of, marker, server_processes, stdio_tools

LEDGER = PROGRAMS / "ledger.rs"
EXPECTED = {
    "count": "Ok(12)", "missing": 'Err("no count")', "cents": "Ok(1250)",
    "refused": 'Err("bad amount \\"12x\\": invalid digit found in string")',  # quoted as Rust's {:?} quotes
    "first": 'Some(Ok(Deposit{account:"alice", cents:1250}))', "second": 'Some(Ok(Withdrawal("bob", 300)))',
    "note": "Some(Ok(Comment))", "nothing": "None",
}


def cargo_project(tmp_path: Path, source: Path) -> Path:
    """A crate with no dependencies around `source`, built by cargo (no network needed); its executable."""
    (tmp_path / "src").mkdir()
    shutil.copy(source, tmp_path / "src" / "main.rs")
    (tmp_path / "Cargo.toml").write_text(f'[package]\nname = "{source.stem}"\nversion = "0.1.0"\nedition = "2021"\n')
    subprocess.run(["cargo", "build", "--offline", "--quiet"], cwd=tmp_path, check=True, capture_output=True)
    return tmp_path / "target" / "debug" / source.stem


async def test_results_options_and_enums_show_the_variant_they_hold(tmp_path: Path) -> None:
    """lldb 19 keeps 32 bits of a variant's discriminant, so the toolchain's formatter matched no variant of a
    niche-encoded `Result<u32, String>` and showed its default one: `Ok(12)` read as `Err("")`."""
    exe = cargo_project(tmp_path, LEDGER)
    built = tmp_path / "src" / "main.rs"
    async with stdio_tools() as tools:
        for mode, path, source in [("source", LEDGER, LEDGER), ("binary", exe, built)]:
            ctx = await tools.ok("debug", mode=mode, path=str(path),
                                 breakpoints=[{"file": str(source), "line": marker(source, "parsed")}])
            assert ctx["reason"] == "breakpoint", ctx
            values = locals_of(ctx)
            assert {name: values.get(name) for name in EXPECTED} == EXPECTED, values
            assert (await tools.ok("evaluate", expression="count"))["value"] == "Ok(12)"
            await tools.ok("stop")


async def test_a_value_the_formatters_cannot_read_in_time_is_unreadable_and_the_session_goes_on(tmp_path: Path) -> None:
    """The toolchain's `HashMap` formatter walks every bucket: a map of a million entries kept lldb-dap, which
    answers one request at a time, busy for minutes, and every call after it answered TIMEOUT."""
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(LEDGER), timeout=120,
                             breakpoints=[{"file": str(LEDGER), "line": marker(LEDGER, "indexed")}])
        assert ctx["reason"] == "breakpoint", ctx
        values = locals_of(ctx)
        assert values["index"].startswith("<unreadable: lldb's Rust formatter ran past"), values
        assert values["total"] == "1099510579200" and values["count"] == "Ok(12)", values
        assert (await tools.ok("evaluate", expression="total"))["value"] == "1099510579200"
        again = await tools.ok("context")
        assert locals_of(again)["index"].startswith("<unreadable"), again
        # its first elements inline, read by count (asked for whole, lldb-dap built a million children)
        assert values["history"].startswith("size=1048576 [0, 2, 4, ") and values["history"].endswith(", …]"), values
        # lldb-dap builds every child a `variables` request names: a snapshot asks for the first page only
        snapshot = await tools.ok("snapshot_create", depth=1)
        written = tmp_path / "snapshot.json"
        await tools.ok("snapshot_export", snapshot_id=snapshot["snapshot"]["id"], path=str(written))
        exported = json.loads(written.read_text())
        history = next(node for node in exported["root"]["children"] if node["name"] == "history")
        assert [child["value"] for child in history["children"][:3]] == ["0", "2", "4"], history["children"][:3]
        assert len(history["children"]) == 1000 and "truncated" in history.get("flags", []), history.get("flags")
        await tools.ok("clear-breakpoints", all=True)
        end = await tools.ok("continue", timeout=120)
        assert end["state"] == "terminated" and "1048576 entries" in end["output"]["text"], end


PANICS = PROGRAMS / "panics.rs"


@pytest.mark.parametrize(("how", "function", "message"), [
    ("index", "panics::Shelf::count_at", "index out of bounds: the len is 3 but the index is 5"),
    ("overflow", "panics::Shelf::restock", "attempt to add with overflow"),
    ("explicit", "panics::check", "slot 1 holds 250 items, over the limit of 100"),
    ("unwrap", "panics::parse_slot", 'called `Result::unwrap()` on an `Err` value: "slot \\"two\\": invalid digit found in string"')])
async def test_a_panic_stops_as_an_exception_in_the_frame_that_panicked(how: str, function: str, message: str) -> None:
    """lldb-dap offers only C++ and Objective-C filters, so a panic ran on to exit 101; the `panic` filter is on
    by default, as the adapters' uncaught ones are, and the stop is shown in the program's own frame."""
    async with stdio_tools() as tools:
        quiet = {"RUST_BACKTRACE": "0"} if how == "explicit" else {}  # the hook then ends with a note
        ctx = await tools.ok("debug", mode="source", path=str(PANICS), args=[how], env=quiet)
        assert (ctx["state"], ctx["reason"]) == ("paused", "exception"), ctx
        assert ctx["location"] == {"file": ctx["location"]["file"], "line": marker(PANICS, how),
                                   "column": ctx["location"]["column"], "function": function,
                                   "text": code_at(PANICS, marker(PANICS, how))}, ctx["location"]
        assert ctx["description"] == f"Rust panic: {message}", ctx
        assert ctx["exception"]["message"] == message and ctx["exception"]["exceptionId"] == "panic", ctx["exception"]
        assert "__rustc::rust_panic" in [frame["function"] for frame in ctx["frames"]]
        if how == "index":
            assert locals_of(ctx)["slot"] == "5"
            assert (await tools.ok("evaluate", expression="self.counts.len"))["value"] == "3"
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and end["exitCode"] == 101, end


async def test_the_panic_filter_is_listed_counted_and_can_be_turned_off() -> None:
    async with stdio_tools() as tools:
        end = await tools.ok("debug", mode="source", path=str(PANICS), args=["index"],
                             breakpoints=[{"exception": "panic", "enabled": False}])
        assert end["state"] == "terminated" and end["exitCode"] == 101, end
        assert "index out of bounds" in end["output"]["text"]

        ctx = await tools.ok("debug", mode="source", path=str(PANICS), args=["explicit"],
                             breakpoints=[{"exception": "panic"}])
        listed = await tools.read_json("debugger://breakpoints")
        (panic,) = listed["exceptionBreakpoints"]
        assert (panic["filter"], panic["hitCount"], panic["verified"]) == ("panic", 1, True), listed
        assert ctx["reason"] == "exception" and ctx["breakpointIds"] == [panic["id"]], ctx
        await tools.ok("stop")

        started = await tools.ok("debug", mode="source", path=str(PANICS), args=["overflow"], stopOnEntry=True)
        assert started["reason"] == "entry", started
        listed = await tools.read_json("debugger://breakpoints")
        assert [(b["filter"], b["default"]) for b in listed["exceptionBreakpoints"]] == [("panic", True)], listed
        added = await tools.ok("breakpoint", exception="panic")
        await tools.ok("breakpoint", id=added["id"], enabled=False)
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and end["exitCode"] == 101, end

        message = await tools.error("breakpoint", "INVALID_ARGUMENT", exception="nosuch")
        assert "panic" in message, message


async def test_calls_behind_a_request_lldb_has_not_answered_are_refused_at_once_until_it_answers() -> None:
    """lldb-dap answers one request at a time, so behind a request it could not answer (lldb itself stuck, not a
    formatter the budget interrupts; frozen here with SIGSTOP, a fault it cannot be made to have on demand) each
    call waited out its own 10 s and answered a bare TIMEOUT; now they are refused at once, saying why, and the
    session goes on once the adapter answers."""
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(LEDGER),
                       breakpoints=[{"file": str(LEDGER), "line": marker(LEDGER, "parsed")}])
        (adapter,) = {p for server in server_processes() for p in server.children(recursive=True)
                      if "lldb-dap" in " ".join(cmdline_of(p))}
        adapter.send_signal(signal.SIGSTOP)
        try:
            await tools.error("context", "TIMEOUT", maxFrames=30)  # the frames are read afresh: a request
            refused = await tools.error("evaluate", "TIMEOUT", expression="count")
            assert "has not answered a 'stackTrace' request" in refused and "one at a time" in refused, refused
            assert "`stop`" in refused
        finally:
            adapter.send_signal(signal.SIGCONT)
        for _ in range(100):  # the adapter answers what waited, then the next call goes through
            answer = await tools("evaluate", expression="count")
            if answer["success"]:
                break
            await asyncio.sleep(0.1)
        assert answer["success"] and answer["value"] == "Ok(12)", answer
        ctx = await tools.ok("context", maxFrames=30)
        assert locals_of(ctx)["count"] == "Ok(12)"
        await tools.ok("stop")


async def test_a_breakpoint_on_a_println_line_stops_once_a_run_and_a_step_leaves_the_line():
    """lldb binds a `println!` line at three places of its function: each `step` came back `reason: breakpoint` on
    the same line, and each `continue` stopped there again in the same run of it (issue 36 point 7)."""
    program = PROGRAMS / "printing.rs"
    print_line = marker(program, "print")
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(program), breakpoints=[{"file": str(program), "line": print_line}])
        assert (stop["reason"], stop["location"]["line"], locals_of(stop)["i"]) == ("breakpoint", print_line, "0"), stop
        stepped = await tools.ok("step", mode="over")
        assert (stepped["reason"], stepped["location"]["line"]) == ("step", marker(program, "after")), stepped
        assert stepped["output"]["text"] == "0 ada\n", stepped  # the whole line ran
        again = await tools.ok("continue")  # the next run of the line, not another place of this one
        assert (again["reason"], again["location"]["line"], locals_of(again)["i"]) == ("breakpoint", print_line, "1")
        hit = await tools.ok("breakpoint", id=again["breakpointIds"][0])
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert hit["hitCount"] == 2, hit  # one a run of the line
