"""How a Node program behaves under dap2mcp as under the other languages (issue 35 points 2, 5, 6 and 10), over MCP
stdio with the real js-debug: an error no code catches stops where it is thrown, `stop {signal}` runs the
program's handler, the program's session is the current one, and the words dap2mcp adds are plain.
"""

from __future__ import annotations

import json
import re

from conftest import PROGRAMS, ROOT, stdio_tools

REJECTIONS = PROGRAMS / "rejections.js"
TERMINATES = PROGRAMS / "terminates.js"
PIPES_HELD = PROGRAMS / "pipes_held.js"
WORKER_NOTES = PROGRAMS / "worker_notes.js"
WORKER_FILE = PROGRAMS / "worker_notes_worker.js"
CALL = re.compile(r"`([a-z_-]+) (\{[^`<>]*\})`")  # a prompt's call with nothing left for the agent to fill in


def line_of(path, name: str) -> int:
    return next(n for n, text in enumerate(path.read_text().splitlines(), start=1) if f"marker: {name}" in text)


async def test_an_uncaught_throw_in_async_code_stops_by_default_where_thrown_with_the_async_stack():
    async with stdio_tools() as tools:
        # the diagnose-crash prompt's own call: mode source for a .js file (it said binary)
        got = await tools.client.get_prompt("diagnose-crash", {"program": str(REJECTIONS), "args": "async"})
        tool, body = CALL.search(got.messages[0].content.text).groups()
        arguments = json.loads(body)
        assert tool == "debug" and arguments["mode"] == "source", arguments
        stop = await tools.ok(tool, **arguments)  # no exception breakpoint asked for
        assert stop["state"] == "paused" and stop["reason"] == "exception", stop
        assert stop["location"]["line"] == line_of(REJECTIONS, "async throw") and stop["location"]["function"] == "load"
        assert stop["exception"]["exceptionId"].startswith("Error: no record 3"), stop["exception"]
        # the async stack: the awaiting function below the await that resumed the thrower
        shown = [(f["function"], f.get("line")) for f in stop["frames"]]
        assert ("report", line_of(REJECTIONS, "awaited")) in shown, shown
        listed = json.loads((await tools.client.read_resource("debugger://breakpoints")).contents[0].text)
        assert [(e["filter"], e["enabled"], e.get("default")) for e in listed["exceptionBreakpoints"]] \
            == [("uncaught", True, True)], listed
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and end["exitCode"] == 1, end
        await tools.ok("stop", all=True)


async def test_an_unhandled_rejection_stops_by_default_at_the_reject():
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(REJECTIONS), args=["reject"])
        assert stop["state"] == "paused" and stop["reason"] == "exception", stop
        assert stop["location"]["line"] == line_of(REJECTIONS, "reject"), stop["location"]
        assert stop["exception"]["exceptionId"].startswith("TypeError: cannot fetch users"), stop["exception"]
        assert "fetchLater" in [f["function"] for f in stop["frames"]], stop["frames"]  # where the timer was set
        await tools.ok("stop", all=True)


async def test_the_default_uncaught_filter_is_turned_off_by_a_disabled_breakpoint_on_it():
    async with stdio_tools() as tools:
        end = await tools.ok("debug", mode="source", path=str(REJECTIONS), args=["async"],
                             breakpoints=[{"exception": "uncaught", "enabled": False}])
        assert end["state"] == "terminated" and end["exitCode"] == 1, end
        assert "Error: no record 3" in end["output"]["text"]
        await tools.ok("stop", all=True)


async def test_stop_with_a_signal_runs_the_programs_handler():
    """`stop {signal}` was refused for a Node program dap2mcp launched ("not launched by this session": the program
    runs in the session js-debug announces, not the launcher's)."""
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(TERMINATES),
                              breakpoints=[{"file": str(TERMINATES), "line": line_of(TERMINATES, "tick")}])
        assert stop["state"] == "paused" and stop["parentId"] == "s1", stop
        ended = await tools.ok("stop", signal="SIGTERM", timeout=10)
        assert ended["state"] == "terminated" and ended["exitCode"] == 3, ended
        assert ended["output"].startswith("cleaned up after "), ended  # the handler ran, past the breakpoint


async def test_the_exit_code_of_a_program_whose_end_js_debug_reports_first_is_in_the_answer():
    """js-debug's launcher ends with the program's target, before the program's process has: the answer had no exit
    code (a Jest run's verdict missing under load), as closing the launcher's connection dropped the wait for the
    process's end; `info sessions` never learnt it either. The program's pipes held open make the gap sure."""
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", mode="source", path=str(PIPES_HELD))
        assert ended["state"] == "terminated" and ended["exitCode"] == 3, ended
        assert ended["description"] == "the program exited with code 3", ended
        assert "leaving with code 3" in ended["output"]["text"], ended
        listed = (await tools.ok("info", type="sessions"))["items"]
        assert [s.get("exitCode") for s in listed] == [3, 3], listed  # the launcher's and the program's


async def test_the_programs_session_is_current_after_a_debug_that_did_not_stop():
    """After a `debug` whose timeout passed, the launcher's session was current and `pause {}` answered "the
    program has no threads to pause": the program's own session answers, is current, and pauses."""
    async with stdio_tools() as tools:
        running = await tools.ok("debug", mode="source", path=str(TERMINATES), timeout=1)
        assert running["state"] == "running" and running["parentId"] == "s1", running
        paused = await tools.ok("pause")
        assert paused["state"] == "paused" and paused["sessionId"] == running["sessionId"], paused
        assert paused["location"]["file"].endswith("terminates.js"), paused
        listed = (await tools.ok("info", type="sessions"))["items"]
        assert [s["sessionId"] for s in listed if s.get("current")] == [running["sessionId"]], listed
        await tools.ok("stop", all=True)


async def test_breakpoint_notes_name_only_what_did_not_bind_in_words_and_condition_errors_are_js_debugs():
    """js-debug's key `breakpoint.provisionalBreakpoint` was each breakpoint's note, bound or not: a logpoint that
    fired and a breakpoint bound in a worker got it too (the launcher's session, which runs nothing, answered).
    The note is for a breakpoint nothing bound, in words; a condition that throws is said in `adapterOutput`."""
    async with stdio_tools() as tools:
        end = await tools.ok("debug", mode="source", path=str(WORKER_NOTES), breakpoints=[
            {"file": str(WORKER_NOTES), "line": line_of(WORKER_NOTES, "message"), "logMessage": "got {square}"},
            {"file": str(WORKER_FILE), "line": line_of(WORKER_FILE, "square"), "logMessage": "i={i}"},
            {"file": str(REJECTIONS), "line": line_of(REJECTIONS, "awaited")},  # a file the program never loads
            {"file": str(WORKER_NOTES), "line": line_of(WORKER_NOTES, "message") + 1, "condition": "nosuch.x > 1"},
        ])
        assert end["state"] == "terminated" and end["exitCode"] == 0, end
        assert "provisionalBreakpoint" not in json.dumps(end), end
        [note] = end["breakpointNotes"]
        assert note.startswith("breakpoint 3 (rejections.js:") and "not bound" in note, note
        lines = end["output"]["text"].splitlines()  # the two threads' lines, each thread's in its order
        assert [line for line in lines if line.startswith("i=")] == ["i=0", "i=1", "i=2"], lines
        assert [line for line in lines if not line.startswith("i=")] == [
            "got 0", "square 0", "got 1", "square 1", "got 4", "square 4"], lines
        assert end["adapterOutput"]["text"].count("Breakpoint condition error: nosuch is not defined\n") == 3, end


async def test_a_worker_thread_is_named_by_its_file_and_restart_keeps_the_programs_session_id():
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(WORKER_NOTES),
                              breakpoints=[{"file": str(WORKER_FILE), "line": line_of(WORKER_FILE, "square")}])
        assert stop["state"] == "paused" and stop["location"]["file"].endswith("worker_notes_worker.js"), stop
        named = {s["sessionId"]: s["program"] for s in (await tools.ok("info", type="sessions"))["items"]}
        assert named[stop["sessionId"]] == str(WORKER_FILE), named  # it was "process None"
        program = stop["parentId"]  # the program's session, below the launcher's s1
        assert named[program] == str(WORKER_NOTES) and program != "s1", named
        again = await tools.ok("restart", sessionId=program)
        assert again["state"] == "paused" and again["parentId"] == program, again  # s2 is s2 still
        running = await tools.ok("continue", sessionId=program, timeout=1)
        assert running["sessionId"] == program, running
        await tools.ok("stop", all=True)


async def test_a_long_string_is_cut_where_docs_limits_says():
    limits = (ROOT / "docs" / "limits.md").read_text()
    stated = re.search(r"`evaluate`'s and `set-variable`'s `value` \| ([\d,]+) characters \(`truncated: true`\)", limits)
    assert stated, "docs/limits.md names the bound of an evaluation's value"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(REJECTIONS), args=["async"],
                       breakpoints=[{"file": str(REJECTIONS), "line": line_of(REJECTIONS, "async throw")}])
        got = await tools.ok("evaluate", expression="'ab'.repeat(3000)")
        assert len(got["value"]) == int(stated.group(1).replace(",", "")) and got["truncated"] is True, got
        await tools.ok("stop", all=True)
