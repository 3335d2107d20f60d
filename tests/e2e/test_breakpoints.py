"""Conditions, hit counts, tracepoints, exception breakpoints, waiting and output, on real debugpy over stdio."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from mcp.types import LoggingMessageNotificationParams

from conftest import PROGRAMS, ROOT, Tools, connect, locals_of, marker, stdio_tools

COUNTER = PROGRAMS / "counter.py"
RAISES = PROGRAMS / "raises.py"
ASKS = PROGRAMS / "asks.py"


def at(path, name: str, **options: Any) -> dict[str, Any]:
    return {"file": str(path), "line": marker(path, name), **options}


async def start(tools: Tools, path=COUNTER, args: list[str] | None = None) -> dict:
    return await tools.ok("debug", mode="source", path=str(path), args=args or [], stopOnEntry=True)


async def test_a_condition_stops_only_on_the_seventh_iteration():
    async with stdio_tools() as tools:
        await start(tools)
        bp = await tools.ok("breakpoint", **at(COUNTER, "loop"), condition="i == 7")
        assert bp["verified"] and bp["condition"] == "i == 7" and bp["type"] == "line"
        ctx = await tools.ok("continue")
        assert ctx["reason"] == "breakpoint" and locals_of(ctx)["i"] == "7"
        assert ctx["breakpointIds"] == [bp["id"]]
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 0
        assert "total 338350" in ended["output"]["text"]  # the program's last words come with its end


async def test_hit_conditions_stop_on_every_nth_hit_and_bad_ones_are_refused():
    async with stdio_tools() as tools:
        await start(tools, args=["25"])
        for bad in ("banana", "% x", ">= "):
            await tools.error("breakpoint", "INVALID_ARGUMENT", **at(COUNTER, "work"), hitCondition=bad)
        bp = await tools.ok("breakpoint", **at(COUNTER, "work"), hitCondition="% 10")
        stops = []
        for _ in range(3):
            ctx = await tools.ok("continue")
            if ctx["state"] != "paused":
                break
            stops.append(locals_of(ctx)["i"])
        assert stops == ["10", "20"] and ctx["state"] == "terminated"
        counted = await tools.ok("breakpoint", id=bp["id"], enabled=True)
        assert counted["hitCount"] == 2  # stops, as the adapter reports them


async def test_a_tracepoint_logs_a_hundred_lines_without_stopping():
    async with stdio_tools() as tools:
        await start(tools)
        bp = await tools.ok("breakpoint", **at(COUNTER, "loop"), logMessage="i={i} total={total}")
        assert bp["type"] == "tracepoint"
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated"  # never stopped
        # tracepoint messages come from the adapter, the program's prints through a pipe: they may interleave
        lines = re.findall(r"i=\d+ total=\d+", (await tools.ok("output", limit=30_000))["text"])
        assert len(lines) == 100 and lines[0] == "i=1 total=0" and lines[-1] == "i=100 total=328350"
        assert "\u2063" not in ended.get("output", {}).get("text", "")  # the tag that counts hits is not shown


async def test_max_notifications_turns_a_tracepoint_off_and_it_can_be_changed_by_id():
    async with stdio_tools() as tools:
        await start(tools)
        trace = await tools.ok("breakpoint", **at(COUNTER, "loop"), logMessage="tick {i}", maxNotifications=5)
        stop = await tools.ok("breakpoint", **at(COUNTER, "work"), condition="i == 50", enabled=False)
        assert stop["state"] == "disabled"
        enabled = await tools.ok("breakpoint", id=stop["id"], enabled=True)
        assert enabled["enabled"] is True and enabled["condition"] == "i == 50"
        ctx = await tools.ok("continue")
        assert locals_of(ctx)["i"] == "50"
        page = await tools.ok("output")
        assert re.findall(r"tick \d+", page["text"]) == [f"tick {n}" for n in range(1, 6)]
        views = {v["id"]: v for v in [await tools.ok("breakpoint", id=trace["id"])]}
        assert views[trace["id"]]["state"] == "exhausted" and views[trace["id"]]["notificationsSent"] == 5
        await tools.error("breakpoint", "BREAKPOINT_NOT_FOUND", id=999, enabled=False)
        await tools.error("breakpoint", "INVALID_ARGUMENT", id=trace["id"], file=str(COUNTER), line=3)


async def test_capabilities_the_adapter_lacks_are_refused_by_name():
    async with stdio_tools() as tools:
        await start(tools)
        message = await tools.error("breakpoint", "NOT_SUPPORTED", exception="raised", condition="True")
        assert "supportsExceptionFilterOptions" in message
        await tools.error("breakpoint", "NOT_SUPPORTED", function="work", logMessage="x")
        assert "raised, uncaught, userUnhandled" in await tools.error("breakpoint", "INVALID_ARGUMENT", exception="bogus")
        await tools.error("breakpoint", "INVALID_ARGUMENT", **at(COUNTER, "loop"), maxNotifications=3)
        await tools.error("breakpoint", "INVALID_ARGUMENT", **at(COUNTER, "loop"), exceptionTypes=["ValueError"])
        await tools.error("breakpoint", "INVALID_ARGUMENT", exception="raised", file=str(COUNTER), line=3)


async def test_exception_breakpoints_stop_with_type_message_and_stack():
    async with stdio_tools() as tools:
        await start(tools, RAISES)
        raised = await tools.ok("breakpoint", exception="raised", exceptionTypes=["ValueError"])
        assert raised["type"] == "exception" and raised["verified"]
        ctx = await tools.ok("continue")
        assert ctx["reason"] == "exception"
        assert ctx["exception"]["typeName"] == "ValueError" and "seven" in ctx["exception"]["message"]
        assert ctx["location"]["line"] == marker(RAISES, "parse")
        seen = []
        while ctx["exception"]["typeName"] == "ValueError":  # debugpy reports it again in each frame it leaves
            seen.append(ctx["location"]["function"])
            ctx = await tools.ok("continue")
        assert seen[0] == "parse" and set(seen) <= {"parse", "main"}
        # the caught KeyError is not a ValueError: the next stop is the uncaught one, by the default filter
        assert ctx["reason"] == "exception" and ctx["exception"]["typeName"] == "KeyError"
        assert ctx["location"]["line"] == marker(RAISES, "uncaught") and "colour" in ctx["exception"]["message"]
        assert "main" in ctx["exception"]["stackTrace"]
        removed = await tools.ok("clear-breakpoints", ids=[raised["id"]])
        assert removed["removed"] == [raised["id"]]


async def test_breakpoints_of_every_kind_survive_restart_and_clear_all():
    async with stdio_tools() as tools:
        await start(tools, RAISES)
        ids = [(await tools.ok("breakpoint", exception="raised"))["id"],
               (await tools.ok("breakpoint", **at(RAISES, "parse"), condition="text == 'seven'"))["id"],
               (await tools.ok("breakpoint", **at(RAISES, "uncaught"), logMessage="settings={settings}"))["id"]]
        await tools.ok("restart")
        ctx = await tools.ok("continue")
        assert ctx["reason"] in ("breakpoint", "exception") and ctx["location"]["line"] == marker(RAISES, "parse")
        for bp_id in ids:
            assert (await tools.ok("breakpoint", id=bp_id))["verified"] is True
        assert sorted((await tools.ok("clear-breakpoints", all=True))["removed"]) == sorted(ids)
        ended = await tools.ok("continue")  # only the adapter's default (uncaught) is left
        assert ended["reason"] == "exception" and ended["exception"]["typeName"] == "KeyError"


async def test_a_breakpoint_never_hit_times_out_then_wait_and_pause_pick_up():
    async with stdio_tools() as tools:
        await start(tools, args=["100000000"])
        await tools.ok("breakpoint", **at(COUNTER, "never"))
        running = await tools.ok("continue", timeout=0.5)
        assert running["state"] == "running" and "`wait`" in running["hint"]
        waited = await tools.ok("wait", timeout=0.3)
        assert waited["state"] == "running"
        paused = await tools.ok("pause")
        assert paused["state"] == "paused" and paused["reason"] == "pause"
        already = await tools.ok("wait", timeout=0.3)
        assert already["state"] == "paused" and "already paused" in already["hint"]


async def test_a_program_reading_stdin_gets_a_clear_hint():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(ASKS))
        assert ctx["reason"] == "exception" and ctx["exception"]["typeName"] == "EOFError"
        assert "stdin" in ctx["hint"]


async def test_output_keeps_stdout_and_stderr_in_order_and_pages():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(COUNTER), args=["3"],
                       breakpoints=[at(COUNTER, "end")])
        for _ in range(50):  # debugpy may forward the last lines a moment after the stop
            page = await tools.ok("output")
            streams = [ln for ln in page["text"].splitlines() if ln.startswith(("out", "err"))]
            if len(streams) == 6:
                break
            await asyncio.sleep(0.05)
        assert streams == ["out 0", "err 0", "out 1", "err 1", "out 2", "err 2"]
        first = await tools.ok("output", offset=0, limit=6)
        rest = await tools.ok("output", offset=first["nextOffset"])
        assert first["text"] + rest["text"] == page["text"] and rest["nextOffset"] == rest["end"] == page["end"]


async def collect_logs(mode: str, opt_in: bool) -> list[dict[str, Any]]:
    received: list[dict[str, Any]] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        received.append(params.data)

    client = connect("stdio", mode, logging_callback=on_log, log_level="info" if opt_in else None)
    async with client:
        tools = Tools(client)
        if mode == "legacy" and opt_in:
            await client.session.set_logging_level("info")
        await start(tools, args=["10"])
        await tools.ok("breakpoint", **at(COUNTER, "loop"), logMessage="i={i}")
        await tools.ok("breakpoint", **at(COUNTER, "end"))
        await tools.ok("continue")
        await asyncio.sleep(0.2)
    return received


async def test_hits_reach_clients_that_asked_for_log_messages_in_both_protocol_versions():
    for mode in ("legacy", "2026-07-28"):
        logs = await collect_logs(mode, opt_in=True)
        traced = [d for d in logs if d.get("event") == "tracepoint"]
        assert [d["message"] for d in traced] == [f"i={n}" for n in range(1, 11)], mode
        assert traced[-1]["hitCount"] == 10 and traced[-1]["notificationsSent"] == 10
        assert [d["event"] for d in logs if d.get("event") == "breakpoint"] == ["breakpoint"], mode
        assert await collect_logs(mode, opt_in=False) == [], mode


async def test_tracepoint_messages_and_conditions_are_checked_before_they_are_sent():
    async with stdio_tools() as tools:
        await start(tools, args=["5"])
        for bad in ("v={i", "v=}", "{{i}}", "{}", "{i =}", "{1 +}"):
            await tools.error("breakpoint", "INVALID_ARGUMENT", **at(COUNTER, "loop"), logMessage=bad)
        for bad in ("i ==", "1 +"):
            await tools.error("breakpoint", "INVALID_ARGUMENT", **at(COUNTER, "loop"), condition=bad)
        await tools.error("breakpoint", "INVALID_ARGUMENT", **at(COUNTER, "loop"), hitCondition="% 0")
        first = await tools.ok("breakpoint", **at(COUNTER, "loop"), logMessage="rate 50% at {i}")
        assert str(first["id"]) in await tools.error("breakpoint", "INVALID_ARGUMENT", **at(COUNTER, "loop"))
        await tools.ok("continue")
        text = (await tools.ok("output"))["text"]
        assert re.findall(r"rate 50% at \d+", text) == [f"rate 50% at {n}" for n in range(1, 6)]


async def test_an_empty_condition_is_no_condition_and_takes_one_away():
    """As an editor's emptied condition box: not a bad condition, but none."""
    async with stdio_tools() as tools:
        await start(tools, args=["5"])
        plain = await tools.ok("breakpoint", **at(COUNTER, "loop"), condition="")
        assert "condition" not in plain, plain
        assert locals_of(await tools.ok("continue"))["i"] == "1"
        await tools.ok("breakpoint", id=plain["id"], condition="i == 4")
        assert locals_of(await tools.ok("continue"))["i"] == "4"
        cleared = await tools.ok("breakpoint", id=plain["id"], condition="")
        assert "condition" not in cleared, cleared
        assert locals_of(await tools.ok("continue"))["i"] == "5"
        await tools.ok("stop")


async def test_a_program_cannot_forge_tracepoint_messages():
    tags = PROGRAMS / "tags.py"
    async with stdio_tools() as tools:
        await start(tools, tags)
        bp = await tools.ok("breakpoint", **at(tags, "print"), logMessage="real {n}", maxNotifications=1)
        await tools.ok("continue")
        text = (await tools.ok("output"))["text"]
        assert text.count("forged") == 3 and "done" in text and text.count("real") == 1
        assert (await tools.ok("breakpoint", id=bp["id"]))["notificationsSent"] == 1


async def test_exhausted_tracepoints_start_afresh_after_restart_and_clear_by_file():
    async with stdio_tools() as tools:
        await start(tools, args=["10"])
        bp = await tools.ok("breakpoint", **at(COUNTER, "loop"), logMessage="w {i}", maxNotifications=2)
        await tools.ok("continue")
        await tools.ok("restart")
        await tools.ok("continue")
        text = (await tools.ok("output"))["text"]
        assert re.findall(r"w \d+", text) == ["w 1", "w 2"]
        again = await tools.ok("breakpoint", id=bp["id"])
        assert again["notificationsSent"] == 2 and again["state"] == "exhausted"
        assert (await tools.ok("clear-breakpoints", file=str(COUNTER)))["removed"] == [bp["id"]]


async def test_exception_stops_name_and_count_their_breakpoint():
    async with stdio_tools() as tools:
        await start(tools, RAISES)
        value_errors = await tools.ok("breakpoint", exception="raised", exceptionTypes=["ValueError"])
        uncaught = await tools.ok("breakpoint", exception="uncaught")
        ctx = await tools.ok("continue")
        assert ctx["exception"]["typeName"] == "ValueError" and ctx["breakpointIds"] == [value_errors["id"]]
        while ctx["state"] == "paused" and ctx["exception"]["typeName"] == "ValueError":
            ctx = await tools.ok("continue")
        assert ctx["exception"]["typeName"].startswith("KeyError") and ctx["breakpointIds"] == [uncaught["id"]]
        assert (await tools.ok("breakpoint", id=uncaught["id"]))["hitCount"] == 1


async def test_a_start_says_which_breakpoints_moved_or_never_bound(tmp_path):
    """Without a word, a program that runs to its end past a breakpoint on an `#include` looks bug-free,
    and one stopped a line early looks like the loop's first pass was the last."""
    program = tmp_path / "avg.c"
    program.write_text('#include <stdio.h>\n\nint main(void) {\n    int x = 1;\n\n    x += 2;\n'
                       '    printf("%d\\n", x);\n    return 0;\n}\n')
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", mode="source", path=str(program), breakpoints=[{"file": str(program), "line": 1}])
        assert ended["state"] == "terminated"
        assert len(ended["breakpointNotes"]) == 1 and "breakpoint 1 (avg.c:1): not bound" in ended["breakpointNotes"][0]
        stop = await tools.ok("debug", mode="source", path=str(program), breakpoints=[{"file": str(program), "line": 5}])
        assert stop["state"] == "paused" and stop["location"]["line"] == 6
        assert stop["breakpointNotes"] == ["breakpoint 1 (avg.c:5): moved from line 5 to line 6: the adapter found no code on line 5"]
        late = await tools.ok("breakpoint", function="no_such_function")
        assert not late["verified"] and late["state"] == "pending" and "not bound" in late["message"]
        await tools.ok("stop")
    script = tmp_path / "script.py"
    script.write_text("def f():\n    a = 1\n\n    return a\n\n\nprint(f())\n")
    async with stdio_tools() as tools:  # a clean start has no notes at all
        clean = await tools.ok("debug", mode="source", path=str(script), breakpoints=[{"file": str(script), "line": 2}])
        assert clean["state"] == "paused" and "breakpointNotes" not in clean
        await tools.ok("stop")


async def test_a_python_condition_that_raises_stops_and_says_why(tmp_path) -> None:
    """debugpy has pydevd treat a condition that raises as false, a NameError without a word: a misspelt or
    renamed variable made the breakpoint never stop. It stops, and the output says what the condition raised."""
    program = tmp_path / "loop.py"
    program.write_text("total = 0\nfor i in range(3):\n    total += i\nprint('done', total)\n")
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), stopOnEntry=True)
        await tools.ok("breakpoint", file=str(program), line=3, condition="totl > 0")
        stop = await tools.ok("continue")
        assert stop["state"] == "paused" and stop["breakpointIds"] == [1], stop
        assert "NameError: name 'totl' is not defined" in stop["adapterOutput"]["text"], stop  # pydevd's words
        assert "NameError" not in (stop.get("output") or {}).get("text", ""), stop  # not the program's
        await tools.ok("breakpoint", id=1, condition="total > 0")
        later = await tools.ok("continue")
        assert later["state"] == "paused" and locals_of(later)["total"] == "1", later  # a sound condition still filters
        await tools.ok("stop")


COMPREHENSIONS = PROGRAMS / "comprehension_lines.py"


async def test_a_breakpoint_on_a_comprehensions_line_stops_in_the_function_around_it() -> None:
    """pydevd stops at a line in every frame that runs it: a generator expression's line stopped once in the
    function and again at each item in `<genexpr>`, evaluating the condition where `limit` does not exist
    (a NameError each time). The line is the function's; a line only the generator runs still stops there."""
    async with stdio_tools() as tools:
        await start(tools, COMPREHENSIONS)
        bps = [await tools.ok("breakpoint", **at(COMPREHENSIONS, "genexpr line"), condition="limit == 4"),
               await tools.ok("breakpoint", **at(COMPREHENSIONS, "listcomp line"))]
        stops = []
        for _ in range(2):
            stop = await tools.ok("continue")
            stops.append((stop["location"]["function"], stop["breakpointIds"]))
            assert "adapterOutput" not in stop, stop  # no NameError from a frame without `limit`
        assert stops == [("totals", [bps[0]["id"]]), ("totals", [bps[1]["id"]])], stops
        inner = await tools.ok("breakpoint", **at(COMPREHENSIONS, "inner line"))
        stop = await tools.ok("continue")
        assert stop["location"]["function"] == "<genexpr>" and locals_of(stop)["z"] == "1", stop
        assert locals_of(await tools.ok("continue"))["z"] == "2"  # at each item, as the line is the generator's
        await tools.ok("breakpoint", id=inner["id"], enabled=False)
        assert (await tools.ok("continue"))["state"] == "terminated"


async def test_a_python_hit_condition_counts_the_hits_its_condition_lets_through_and_an_edit_keeps_the_count():
    """pydevd stopped where either the condition or the hit condition held (so the pair was refused), and
    counted afresh whenever the file's breakpoints were sent again, so an edit restarted the count unsaid."""
    async with stdio_tools() as tools:
        await start(tools, COMPREHENSIONS)
        bp = await tools.ok("breakpoint", **at(COMPREHENSIONS, "counted line"), condition="i % 2 == 0",
                            hitCondition="== 3")
        stop = await tools.ok("continue")
        assert locals_of(stop)["i"] == "4", stop  # the third even i: 0, 2, 4
        edited = await tools.ok("breakpoint", id=bp["id"], hitCondition=">= 5")
        assert edited["hitCondition"] == ">= 5"
        await tools.ok("breakpoint", **at(COMPREHENSIONS, "genexpr line"))  # the file's list is sent again
        assert locals_of(await tools.ok("continue"))["i"] == "8", "hits 4 and 5 are i = 6 and 8: the count went on"
        assert locals_of(await tools.ok("continue"))["i"] == "10"
        await tools.ok("stop")


async def test_a_python_condition_ending_in_a_comment_still_holds():
    """The condition is sent inside dap2mcp's own parentheses (beside a comprehension's frame test, a hit
    condition's count): a `#` comment at its end, which Python takes in a condition, commented out the closing
    parenthesis, and every pass stopped with a SyntaxError in place of the condition."""
    async with stdio_tools() as tools:
        await start(tools, COMPREHENSIONS)
        for name, options in (("genexpr line", {"condition": "limit == 4  # always"}),
                              ("listcomp line", {"condition": "True  # a", "hitCondition": "1"}),
                              ("counted line", {"condition": "i == 4  # the fifth pass"})):
            await tools.ok("breakpoint", **at(COMPREHENSIONS, name), **options)
        stops = []
        while (stop := await tools.ok("continue"))["state"] == "paused":
            assert "adapterOutput" not in stop, stop
            stops.append((stop["location"]["function"], locals_of(stop).get("i")))
        assert stops == [("totals", None), ("totals", None), ("count", "4")], stops


RESUMED = PROGRAMS / "resumed.py"


async def test_function_breakpoints_on_generators_and_coroutines_stop_once_a_call() -> None:
    """pydevd never takes a generator's or a coroutine's frame for a call: their function breakpoints were
    verified and never stopped. They stop at the function's first line, once a call (not at each pass of a
    loop on that line, nor at each resumption), by a bare name or a dotted one."""
    async with stdio_tools() as tools:
        await start(tools, RESUMED)
        set_ = [await tools.ok("breakpoint", function=name) for name in ("evens", "fetch", "resumed_lib.pages")]
        assert [bp["line"] for bp in set_] == [marker(RESUMED, "evens first"), marker(RESUMED, "fetch first"),
                                               marker(PROGRAMS / "resumed_lib.py", "pages first")], set_
        assert all(bp["verified"] and "first line" in bp["message"] for bp in set_), set_
        stops = []
        while (stop := await tools.ok("continue"))["state"] == "paused":
            stops.append((stop["location"]["function"], stop["breakpointIds"], locals_of(stop).get("n")))
        assert stops == [("evens", [set_[0]["id"]], "3"), ("evens", [set_[0]["id"]], "2"),
                         ("fetch", [set_[1]["id"]], None), ("pages", [set_[2]["id"]], None)], stops
        assert "[0, 2, 4] [0, 2]" in stop["output"]["text"] or "[0, 2, 4] [0, 2]" in (await tools.ok("output"))["text"]
        listed = await tools.ok("breakpoint", id=set_[0]["id"], enabled=True)
        assert listed["type"] == "function" and listed["hitCount"] == 2, listed


async def test_a_condition_gdb_refuses_is_said_and_its_stops_are_credited() -> None:
    """cdt-gdb-adapter inserts the breakpoint, then fails to add the condition, and answers it unverified: it
    looked pending while gdb stopped at it on every hit, and those stops named no breakpoint."""
    program = ROOT / "examples" / "c" / "invoice.c"
    line = marker(program, "loop")
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), adapter="gdb", stopOnEntry=True)
        refused = await tools.ok("breakpoint", file=str(program), line=line, condition="totl > 500")
        assert refused["verified"] is True and refused["state"] == "verified", refused
        assert "refused the condition (No symbol \"totl\" in current context)" in refused["message"], refused
        assert "stops at every hit" in refused["message"]
        stop = await tools.ok("continue")
        assert stop["location"]["line"] == line and stop["breakpointIds"] == [1], stop
        fixed = await tools.ok("breakpoint", id=1, condition="total > 500")
        assert fixed["verified"] is True and "message" not in fixed, fixed
        later = await tools.ok("continue")
        assert later["breakpointIds"] == [1] and int(locals_of(later)["total"]) > 500, later
        await tools.ok("stop")


async def test_delve_tracepoints_are_told_apart_from_the_goroutine_it_names() -> None:
    """Delve writes `> [Go 1]: ` before each log message: the tag after it went unseen, so the invisible
    characters reached the output, nothing was counted and `maxNotifications` never took effect."""
    program = PROGRAMS / "calls_go" / "main.go"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), stopOnEntry=True, timeout=120)
        await tools.ok("breakpoint", file=str(program), line=marker(program, "leaf"), logMessage="leaf {x}",
                       maxNotifications=2)
        end = await tools.ok("continue", timeout=60)
        logged = [line for line in end["output"]["text"].splitlines() if "leaf" in line]
        assert len(logged) == 2 and all(line.startswith("> [Go 1]: leaf ") for line in logged), end["output"]
        assert "\u2063" not in end["output"]["text"]
        [bp] = (await tools.read_json("debugger://breakpoints"))["breakpoints"]
        assert bp["notificationsSent"] == 2 and bp["state"] == "Exhausted", bp


async def test_gdb_tracepoints_log_plain_text_on_lines_of_their_own() -> None:
    """cdt-gdb-adapter writes the message as it is: a `{x}` came out as `{x}`, and the messages ran together."""
    program = PROGRAMS / "calls.c"
    line = marker(program, "leaf")
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), adapter="gdb", stopOnEntry=True)
        message = await tools.error("breakpoint", "NOT_SUPPORTED", file=str(program), line=line, logMessage="leaf {x}")
        assert "without the values of '{...}' parts" in message, message
        await tools.ok("breakpoint", file=str(program), line=line, logMessage="in leaf", maxNotifications=2)
        end = await tools.ok("continue")
        assert [text for text in end["output"]["text"].splitlines() if "in leaf" in text] == ["in leaf", "in leaf"], end


async def test_a_breakpoint_by_the_text_of_its_line_and_the_stopped_lines_text():
    """An agent quotes the code it means: `{file, text}` finds the line (the nearest to `line` where several
    hold it), refuses an absent or ambiguous text naming the candidates, and every stop shows its line's code."""
    loop, end = marker(COUNTER, "loop"), marker(COUNTER, "end")
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(COUNTER), args=["3"],
                              breakpoints=[{"file": str(COUNTER), "text": "total += work(i)"}])
        assert stop["location"]["line"] == loop and stop["location"]["text"] == "total += work(i)  # marker: loop"
        listed = (await tools.ok("breakpoint", id=stop["breakpointIds"][0], enabled=True))
        assert listed["line"] == loop and listed["text"] == "total += work(i)  # marker: loop", listed
        message = await tools.error("breakpoint", "INVALID_ARGUMENT", file=str(COUNTER), text="print(")
        assert "3 lines" in message and f"{end}: print(\"total\", total)" in message, message
        near = await tools.ok("breakpoint", file=str(COUNTER), text="print(", line=end - 1)
        assert near["line"] == end - 1 and near["text"].startswith('print(f"err {n}"'), near
        tie = await tools.error("breakpoint", "INVALID_ARGUMENT", file=str(COUNTER), text="return", line=10)
        assert "2 lines as near to line" in tie, tie
        assert "no line" in await tools.error("breakpoint", "INVALID_ARGUMENT", file=str(COUNTER), text="nowhere()")
        await tools.error("breakpoint", "INVALID_ARGUMENT", file=str(COUNTER), text="   ")
        await tools.ok("breakpoint", id=near["id"], enabled=False)
        await tools.ok("breakpoint", id=listed["id"], enabled=False)
        there = await tools.ok("continue", to={"file": str(COUNTER), "text": 'print("total"'})
        assert there["location"]["line"] == end and there["location"]["text"].startswith('print("total", total)')
        await tools.ok("stop")
