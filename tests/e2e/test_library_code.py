"""Library code under debugpy's justMyCode, with the standard library as the library: breakpoints of every
kind stop in it, `step in` stays in the program's own code and says what it passed over, a pause lands in a
library's server loop, and a RecursionError stops (real debugpy over stdio)."""

from __future__ import annotations

import asyncio
import json
import logging
import socketserver
import sys
from pathlib import Path

import pytest

from conftest import PROGRAMS, Tools, locals_of, marker, shown, stdio_tools

USES = PROGRAMS / "uses_library.py"
SERVES = PROGRAMS / "serves.py"
RECURSION = PROGRAMS / "recursion.py"


def line_of(module_file: str | None, text: str) -> tuple[str, int]:
    """A library file and the first line in it holding `text`: the debuggee runs this interpreter's library."""
    assert module_file is not None
    for number, line in enumerate(Path(module_file).read_text().splitlines(), start=1):
        if text in line:
            return module_file, number
    raise LookupError(f"{text!r} not in {module_file}")


DECODE = line_of(sys.modules["json.decoder"].__file__, "obj, end = self.raw_decode(s, idx=_w(s, 0).end())")
LOG_INFO = line_of(logging.__file__, "self._log(INFO, msg, args, **kwargs)")


async def start(tools: Tools, path: Path = USES, **options) -> dict:
    return await tools.ok("debug", mode="source", path=str(path), python=sys.executable, **options)


def at(path: Path, name: str) -> dict:
    return {"file": str(path), "line": marker(path, name)}


async def test_line_breakpoints_in_standard_library_files_stop_there_from_the_start_and_mid_session():
    async with stdio_tools() as tools:
        ctx = await start(tools, breakpoints=[{"file": DECODE[0], "line": DECODE[1]}])
        assert ctx["state"] == "paused" and ctx["reason"] == "breakpoint", ctx
        assert (ctx["location"]["file"], ctx["location"]["line"]) == DECODE and ctx["breakpointIds"] == [1]
        assert "breakpointNotes" not in ctx  # no "excluded by filters", no advice to edit a launch.json
        assert locals_of(ctx)["s"].startswith("'{\"items\"")
        bp = await tools.ok("breakpoint", file=LOG_INFO[0], line=LOG_INFO[1])
        assert bp["verified"] and "message" not in bp, bp
        ctx = await tools.ok("continue")
        assert ctx["reason"] == "breakpoint" and (ctx["location"]["file"], ctx["location"]["line"]) == LOG_INFO, ctx
        assert ctx["location"]["function"] == "info" and ctx["breakpointIds"] == [bp["id"]]
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and "cheapest 1" in end["output"]["text"]


async def test_function_breakpoints_on_library_functions_stop_in_them():
    async with stdio_tools() as tools:
        ctx = await start(tools, breakpoints=[{"function": "json.loads"}])
        assert ctx["reason"] == "function breakpoint" and ctx["location"]["function"] == "loads", ctx
        assert ctx["location"]["file"] == json.__file__ and ctx["breakpointIds"] == [1]
        assert ctx["frames"][1]["function"] == "parse"
        own = await tools.ok("breakpoint", function="prices.by_price")  # no module `prices`: the bare name counts
        ctx = await tools.ok("continue")
        assert ctx["location"]["function"] == "by_price" and ctx["breakpointIds"] == [own["id"]], ctx
        await tools.ok("clear-breakpoints", ids=[own["id"]])
        bp = await tools.ok("breakpoint", function="logging.Logger.info")
        assert bp["verified"] and bp["function"] == "logging.Logger.info"
        ctx = await tools.ok("continue")
        assert ctx["location"]["function"] == "info" and ctx["location"]["file"] == logging.__file__, ctx
        assert ctx["breakpointIds"] == [bp["id"]] and locals_of(ctx)["msg"] == "'parsed %d items'"
        await tools.ok("stop")


async def test_continue_to_a_library_line_or_function_stops_there():
    async with stdio_tools() as tools:
        await start(tools, stopOnEntry=True)
        ctx = await tools.ok("continue", to={"function": "json.decoder.JSONDecoder.raw_decode"})
        assert ctx["state"] == "paused" and ctx["location"]["function"] == "raw_decode", ctx
        assert ctx["description"] == "reached the `to` location of `continue`"
        ctx = await tools.ok("continue", to={"file": LOG_INFO[0], "line": LOG_INFO[1]})
        assert ctx["state"] == "paused" and (ctx["location"]["file"], ctx["location"]["line"]) == LOG_INFO, ctx
        assert ctx["description"] == "reached the `to` location of `continue`"
        await tools.ok("stop")


async def test_step_in_stays_in_own_code_says_what_it_passed_over_and_enters_library_code_when_asked():
    async with stdio_tools() as tools:
        await start(tools, breakpoints=[at(USES, "loads"), at(USES, "sort")])
        ctx = await tools.ok("step", mode="in")
        assert ctx["location"]["line"] == marker(USES, "parsed") and ctx["location"]["function"] == "parse", ctx
        assert "passed over" in ctx["hint"] and "json.loads" in ctx["hint"] and "justMyCode: false" in ctx["hint"]
        said = (ctx.get("output") or {}).get("text", "") + (ctx.get("adapterOutput") or {}).get("text", "")
        assert "launch.json" not in said and "Frame skipped" not in said, said  # pydevd's advice for an IDE
        await tools.ok("continue")
        ctx = await tools.ok("step", mode="in")  # sorted() is library code that calls the program's own key
        assert ctx["location"]["function"] == "by_price" and "hint" not in ctx, ctx

        ctx = await start(tools, justMyCode=False, breakpoints=[at(USES, "loads")])
        ctx = await tools.ok("step", mode="in")
        assert ctx["location"]["file"] == json.__file__ and ctx["location"]["function"] == "loads", ctx
        assert "hint" not in ctx
        await tools.ok("stop")


async def test_a_pause_lands_in_a_program_blocked_in_a_standard_library_server_loop():
    async with stdio_tools() as tools:
        started = await start(tools, SERVES, timeout=1)
        assert started["state"] == "running"
        for _ in range(300):  # until it serves (a slow machine is still starting it)
            if "Serving HTTP" in (await tools.ok("output"))["text"]:
                break
            await asyncio.sleep(0.1)
        ctx = await tools.ok("pause")
        assert ctx["state"] == "paused" and ctx["reason"] == "pause", ctx
        where = [(frame["function"], frame.get("file")) for frame in ctx["frames"]]
        assert ("serve_forever", socketserver.__file__) in where, where
        assert where[-1][0] == "<module>" and ("main", shown(SERVES, started)) in where
        # a step from there steps in the library's loop, where the thread is: it reported the program's
        # `main()` line alone, one frame, as if the server had returned, while it still served
        stepped = await tools.ok("step", mode="over", timeout=5)
        assert stepped["state"] == "paused" and stepped["reason"] == "step", stepped
        assert stepped["location"]["file"] != shown(SERVES, started) and len(stepped["frames"]) > 2, stepped
        ctx = await tools.ok("continue", timeout=1)
        assert ctx["state"] == "running"
        ctx = await tools.ok("pause")  # and again, after the library was library code again for the run
        assert ctx["state"] == "paused" and ("serve_forever", socketserver.__file__) in [
            (frame["function"], frame.get("file")) for frame in ctx["frames"]], ctx
        await tools.ok("stop")


async def test_a_recursion_error_stops_in_the_programs_deepest_frame():
    async with stdio_tools() as tools:
        ctx = await start(tools, RECURSION)
        assert ctx["state"] == "paused" and ctx["reason"] == "exception", ctx
        assert ctx["exception"]["typeName"] == "RecursionError" and ctx["exception"]["breakMode"] == "unhandled"
        assert ctx["location"]["function"] == "down" and ctx["frames"][0]["file"] == ctx["location"]["file"]
        assert int(locals_of(ctx)["n"]) > 500
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and end["exitCode"] == 1
        text = end["output"]["text"]
        assert "RecursionError: maximum recursion depth exceeded" in text and "pydevd_cython" not in text, text[-500:]

        await start(tools, RECURSION, stopOnEntry=True)
        await tools.ok("breakpoint", exception="raised", exceptionTypes=["RecursionError"])
        ctx = await tools.ok("continue")
        assert ctx["reason"] == "exception" and ctx["exception"]["typeName"] == "RecursionError", ctx
        assert ctx["location"]["function"] == "down"
        await tools.ok("stop")


CONFIG_REFS = PROGRAMS / "config_refs.py"


@pytest.mark.parametrize("filters", [[], [{"exception": "raised", "exceptionTypes": ["RecursionError"]}],
                                     [{"exception": "raised"}]])
async def test_a_recursion_error_through_library_calls_stops_with_or_without_a_raised_filter(filters):
    """Real code overflows through library calls (re.sub's callbacks, as a config resolver's references that
    refer to each other), where the overflow comes in calling pydevd's trace function or in its own work at
    the stop (its JSON): with a `raised` filter it ended the program, pydevd's frames atop its traceback."""
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(CONFIG_REFS), breakpoints=filters)
        assert ctx["state"] == "paused" and ctx["reason"] == "exception", ctx
        assert ctx["exception"]["typeName"] == "RecursionError" and ctx["location"]["function"] in ("<lambda>", "resolve", "lookup")
        assert ctx["location"]["file"] == ctx["frames"][0]["file"] and ctx["frames"][0]["file"].endswith("config_refs.py")
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and end["exitCode"] == 1
        last = end["output"]["text"].rstrip().splitlines()[-1]
        assert last.startswith("RecursionError: maximum recursion depth exceeded"), end
        pages, offset = [], 0
        while not pages or offset < pages[-1]["end"]:
            pages.append(await tools.ok("output", offset=offset, limit=30_000))
            offset = pages[-1]["nextOffset"]
        assert not any("pydevd" in page["text"] for page in pages)
