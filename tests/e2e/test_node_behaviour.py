"""How a Node program behaves under dap2mcp as under the other languages (issue 35 points 2, 5, 6 and 10), over MCP
stdio with the real js-debug: an error no code catches stops where it is thrown, `stop {signal}` runs the
program's handler, the program's session is the current one, and the words dap2mcp adds are plain.
"""

from __future__ import annotations

import json
import re

from conftest import PROGRAMS, stdio_tools

REJECTIONS = PROGRAMS / "rejections.js"
TERMINATES = PROGRAMS / "terminates.js"
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
