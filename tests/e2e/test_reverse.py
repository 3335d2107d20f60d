"""Going back in time (issue 43): gdb's `record full` under cdt-gdb-adapter, stepped and continued backwards by
dap2mcp's own gdb commands, a watch stopping at the last write before now; rdbg's recorder stepped back through
DAP `stepBack`; and the adapters that cannot go back saying so, and which can."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, locals_of, marker, stdio_tools

C = PROGRAMS / "rewind.c"
CPP = PROGRAMS / "rewind.cpp"
RUBY = PROGRAMS / "rewind.rb"


async def test_a_crash_goes_back_to_the_write_two_calls_before_it_that_corrupted_the_pointer() -> None:
    """`report` crashes on `a->history[0]`; the pointer was zeroed by `rename_owner`, and `audit` ran between: a
    watch on it and `continue {reverse: true}` stop at that line, with the value it had and the one it wrote."""
    async with stdio_tools() as tools:
        started = await tools.ok("debug", mode="source", path=str(C), adapter="gdb", record=True,
                                 breakpoints=[{"file": str(C), "line": marker(C, "start")}])
        assert started["location"]["line"] == marker(C, "start") and not started.get("replay")
        crash = await tools.ok("continue")
        assert crash["reason"] == "exception" and crash["location"]["line"] == marker(C, "crash"), crash
        await tools.ok("breakpoint", watch="a->history")
        back = await tools.ok("continue", reverse=True)
        assert back["reason"] == "data breakpoint" and back["location"]["line"] == marker(C, "corrupt"), back
        assert back["location"]["function"] == "rename_owner" and back["replay"] is True, back
        hit = back["watches"][0]
        assert "ledger" in hit["old"] and hit["new"] == "0x0", hit  # what the line wrote: the pointer, then 0
        assert "written here" in back["description"], back
        assert (await tools.ok("evaluate", expression="a->owner"))["value"].startswith('"bob"')  # strcpy before it
        # forward again through the recording: the write is made, and the crash comes back
        again = await tools.ok("step", mode="over")
        assert again["watches"][0]["new"] == "0x0", again
        await tools.ok("clear-breakpoints", all=True)
        crash = await tools.ok("continue")
        assert crash["location"]["line"] == marker(C, "crash"), crash
        await tools.ok("stop")


async def test_a_loop_s_earlier_turn_that_wrote_the_bad_value_is_found_backwards_and_stepped_around() -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(C), adapter="gdb",
                       breakpoints=[{"file": str(C), "line": marker(C, "start")}])
        recording = await tools.ok("record")
        assert recording["recording"] is True and recording["maxInstructions"] == 200_000, recording
        await tools.ok("breakpoint", file=str(C), line=marker(C, "sum") + 1)
        await tools.ok("continue")
        await tools.ok("breakpoint", watch="ledger[3]")
        bad = await tools.ok("continue", reverse=True)
        assert bad["location"]["line"] == marker(C, "bad write") and bad["replay"] is True, bad
        assert bad["watches"][0] == {"id": bad["watches"][0]["id"], "expression": "ledger[3]", "old": "30",
                                     "new": "-1"}, bad
        assert locals_of(bad)["i"] == "3"
        earlier = await tools.ok("continue", reverse=True)  # the write before it, in the same turn
        assert earlier["location"]["line"] == marker(C, "fill") and earlier["watches"][0]["new"] == "30", earlier
        await tools.ok("clear-breakpoints", all=True)
        out = await tools.ok("step", mode="backOut")  # back to the caller's line
        assert out["location"]["function"] == "main" and out["location"]["line"] == marker(C, "start") + 1, out
        assert out["replay"] is True
        # gdb's reverse-finish stops at the call itself, inside the line: a step back goes to the line's start first
        back = await tools.ok("step", mode="back")
        assert back["location"]["line"] == marker(C, "start") + 1 and back["replay"] is True, back
        back = await tools.ok("step", mode="back")
        assert back["location"]["line"] == marker(C, "start") and back["replay"] is True, back
        # forward past the recording's end: live again
        ahead = await tools.ok("continue")
        assert ahead["location"]["line"] == marker(C, "sum") + 1 and not ahead.get("replay"), ahead
        assert (await tools.ok("record", on=False))["recording"] is False
        assert "nothing is recorded" in await tools.error("step", "NOT_SUPPORTED", mode="back")
        await tools.ok("stop")


async def test_a_step_back_shows_the_values_as_they_were_and_changes_against_the_stop_it_came_from() -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(C), adapter="gdb", record=True,
                       breakpoints=[{"file": str(C), "line": marker(C, "sum")}])
        await tools.ok("continue")  # two turns summed
        before = locals_of(await tools.ok("context"))["total"]
        back = await tools.ok("step", mode="back")
        assert back["replay"] is True
        modified = {m["name"]: m for m in (back.get("changes") or {}).get("modified") or []}
        assert "total" in modified or "i" in modified, back
        assert locals_of(back)["total"] != before or modified, back
        await tools.ok("stop")


async def test_cpp_a_vector_element_s_bad_write_an_earlier_turn_made_is_found_backwards() -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(CPP), adapter="gdb", record=True, stopOnEntry=True,
                       breakpoints=[{"file": str(CPP), "line": marker(CPP, "after")}])
        await tools.ok("continue")  # recorded from `main` on
        await tools.ok("breakpoint", watch="gauges[1].level")
        bad = await tools.ok("continue", reverse=True)
        assert bad["location"]["line"] == marker(CPP, "bad write") and bad["replay"] is True, bad
        assert bad["watches"][0]["new"] == "-100" and bad["watches"][0]["old"] == "5", bad
        assert locals_of(bad)["turn"] == "4"
        await tools.ok("stop")


async def test_ruby_steps_back_a_line_at_a_time_through_rdbg_s_recorder() -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(RUBY),
                       breakpoints=[{"file": str(RUBY), "line": marker(RUBY, "start")}])
        assert (await tools.ok("record"))["recording"] is True
        await tools.ok("step", mode="over")
        at_sum = await tools.ok("step", mode="over")
        assert at_sum["location"]["line"] == marker(RUBY, "sum"), at_sum
        back = await tools.ok("step", mode="back")  # the last line recorded: the end of `fill`
        assert back["replay"] is True and back["location"]["line"] != marker(RUBY, "sum"), back
        said = await tools.error("continue", "NOT_SUPPORTED", reverse=True)
        assert "gdb" in said, said
        assert "gdb" in await tools.error("step", "NOT_SUPPORTED", mode="backOut")
        await tools.error("record", "NOT_SUPPORTED", maxInstructions=5000)
        await tools.ok("stop")


async def test_a_system_call_the_recording_cannot_undo_stops_it_and_says_so() -> None:
    program = PROGRAMS / "rewind_syscall.c"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), adapter="gdb", record=True,
                       breakpoints=[{"file": str(program), "line": marker(program, "start")}])
        stopped = await tools.ok("continue")
        assert stopped["reason"] == "recording stopped", stopped  # in glibc's syscall(), called from that line
        assert {"function": "main", "line": marker(program, "syscall")}.items() <= next(
            f for f in stopped["frames"] if f["function"] == "main").items(), stopped
        assert "a system call it cannot record, so cannot undo" in stopped["description"], stopped
        assert "syscall number 319" in stopped["description"], stopped
        out = await tools.ok("step", mode="backOut")  # what was recorded before it still goes back
        assert out["replay"] is True and out["frames"][0]["function"] == "main", out
        back = await tools.ok("step", mode="back")  # to the start of the call's line (backOut stops inside it)
        if back["frames"][0]["line"] == marker(program, "syscall"):
            back = await tools.ok("step", mode="back")
        assert back["frames"][0]["line"] == marker(program, "syscall") - 1 and back["replay"] is True, back
        await tools.ok("stop")


async def test_a_recording_past_its_limit_says_so_and_going_back_stops_where_what_it_holds_begins() -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(C), adapter="gdb", record=True,
                       breakpoints=[{"file": str(C), "line": marker(C, "start")}])
        assert (await tools.ok("record", maxInstructions=1000))["maxInstructions"] == 1000
        crash = await tools.ok("continue")  # printf and the calls after it: about 4,000 instructions
        assert "passed its limit (1,000 instructions)" in crash["hint"], crash
        oldest = await tools.ok("continue", reverse=True)
        assert oldest["replay"] is True and oldest["location"]["line"] != marker(C, "start"), oldest
        assert "the start of the recording" in oldest["description"], oldest
        ahead = await tools.ok("continue")
        assert "the end of the recording" in ahead["description"] and not ahead.get("replay"), ahead
        await tools.ok("stop")


@pytest.mark.parametrize("adapter, path", [("lldb", C), ("debugpy", PROGRAMS / "calls.py"), ("delve", PROGRAMS / "calls_go"),
                                           ("node", PROGRAMS / "ledger.js"), ("java", PROGRAMS / "java" / "Orders.java")])
async def test_adapters_that_cannot_go_back_say_so_and_name_the_one_that_can(adapter: str, path: object) -> None:
    async with stdio_tools() as tools:
        said = await tools.error("debug", "NOT_SUPPORTED", mode="source", path=str(path), adapter=adapter, record=True)
        assert "gdb" in said, said
        await tools.ok("debug", mode="source", path=str(path), adapter=adapter, stopOnEntry=True)
        for tool, arguments in (("step", {"mode": "back"}), ("continue", {"reverse": True}), ("record", {})):
            said = await tools.error(tool, "NOT_SUPPORTED", **arguments)
            assert "gdb" in said and adapter in said, said
        await tools.ok("stop")


async def test_bad_reverse_input_is_refused_with_a_code() -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(C), adapter="gdb", stopOnEntry=True)
        assert "nothing is recorded" in await tools.error("continue", "NOT_SUPPORTED", reverse=True)
        await tools.error("continue", "INVALID_ARGUMENT", reverse=True, to={"file": str(C), "line": 40})
        await tools.error("record", "INVALID_ARGUMENT", maxInstructions=5)
        await tools.error("step", "INVALID_ARGUMENT", mode="backwards")
        await tools.ok("stop")
        await tools.error("debug", "INVALID_ARGUMENT", mode="core", path=str(C), core="/nonexistent.core", record=True)
