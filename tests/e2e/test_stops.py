"""What a stop costs and how a session starts (issue 23, points 6, 7 and 9), on real debugpy over stdio,
with the standard library's own code where it matters."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

from conftest import PROGRAMS, locals_of, marker, stdio_tools

COUNTER = PROGRAMS / "counter.py"
RAISES = PROGRAMS / "raises.py"


def scopes_of(ctx: dict) -> dict[str, dict]:
    return {s["name"]: s for s in ctx["scopes"]}


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def logging_copy(tmp_path: Path) -> tuple[Path, Path]:
    """The standard library's `logging` package as a package of the program's own (so debugpy stops in it
    whatever its justMyCode), and a program that logs through it."""
    package = tmp_path / "stdlog"
    shutil.copytree(Path(logging.__file__).parent, package)
    program = tmp_path / "app.py"
    program.write_text("import stdlog\n\nstdlog.basicConfig(level=stdlog.INFO)\n"
                       "log = stdlog.getLogger('app')\nlog.info('hello %s', 'world')\n")
    return package / "__init__.py", program


async def test_a_stop_in_a_library_lists_its_locals_and_names_its_globals_which_context_lists_on_request(tmp_path):
    """Inside `logging` a stop carried the module's 50 first globals (its level names, locks, regexes),
    7 KB where the frame's own variables take 1 KB."""
    source, program = logging_copy(tmp_path)
    line = line_of(source, "found = 0") - 1  # the first line of Logger.callHandlers
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(program), cwd=str(tmp_path),
                             breakpoints=[{"file": str(source), "line": line}])
        assert ctx["location"]["function"] == "callHandlers"
        scopes = scopes_of(ctx)
        assert {v["name"] for v in scopes["Locals"]["variables"]} == {"self", "record"}
        assert scopes["Globals"] == {"name": "Globals", "variables": [], "expensive": True}
        assert len(json.dumps(ctx)) < 2500, len(json.dumps(ctx))
        stepped = await tools.ok("step", mode="over")
        assert scopes_of(stepped)["Globals"]["variables"] == [] and len(json.dumps(stepped)) < 2500
        assert [c["name"] for c in stepped["changes"]["added"]] == ["c"]  # changes compare the Locals, as before

        asked = await tools.ok("context", scopes=["globals"])  # as shown, or in any case
        globals_ = {v["name"]: v["value"] for v in scopes_of(asked)["Globals"]["variables"]}
        assert "BASIC_FORMAT" in globals_ and scopes_of(asked)["Globals"]["truncated"]
        assert "c" in locals_of(asked)  # the Locals too, as at the stop
        again = await tools.ok("context")  # not asked for again: named only
        assert scopes_of(again)["Globals"]["variables"] == []
        message = await tools.error("context", "INVALID_ARGUMENT", scopes=["Registers"])
        assert "Locals, Globals" in message
        assert (await tools.ok("evaluate", expression="BASIC_FORMAT"))["value"].startswith("'%(levelname)s")
        await tools.ok("stop")


async def test_at_module_level_the_variables_are_listed_once():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(COUNTER), breakpoints=[
            {"file": str(COUNTER), "line": line_of(COUNTER, "main(int(sys.argv[1])")}])
        scopes = scopes_of(ctx)
        assert "sys" in locals_of(ctx) and scopes["Globals"]["variables"] == []  # once, not under both
        await tools.ok("stop")


async def test_debug_takes_conditional_and_exception_breakpoints_from_the_first_line():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(COUNTER), breakpoints=[
            {"file": str(COUNTER), "line": marker(COUNTER, "loop"), "condition": "i == 7"}])
        assert ctx["reason"] == "breakpoint" and locals_of(ctx)["i"] == "7"
        [bp] = (await tools.read_json("debugger://breakpoints"))["breakpoints"]
        assert bp["condition"] == "i == 7" and ctx["breakpointIds"] == [bp["id"]]

        ctx = await tools.ok("debug", mode="source", path=str(RAISES), breakpoints=[
            {"exception": "raised", "exceptionTypes": ["KeyError"]}])
        assert ctx["reason"] == "exception" and ctx["exception"]["typeName"] == "KeyError"
        assert ctx["location"]["function"] == "main"  # past the ValueError, which is another type

        ctx = await tools.ok("debug", mode="source", path=str(COUNTER), breakpoints=[
            {"file": str(COUNTER), "line": marker(COUNTER, "work"), "hitCondition": "% 40"},
            {"file": str(COUNTER), "line": marker(COUNTER, "end"), "logMessage": "total={total}"},
            {"function": "never", "enabled": False}])
        assert locals_of(ctx)["i"] == "40"
        views = (await tools.read_json("debugger://breakpoints"))["breakpoints"]
        assert [(v["type"], v["hitCondition"], v["logMessage"], v["enabled"]) for v in views] == [
            ("Breakpoint", "% 40", None, True), ("Tracepoint", None, "total={total}", True),
            ("FunctionBreakpoint", None, None, False)]
        await tools.ok("stop")


async def test_debug_refuses_breakpoint_options_no_adapter_could_take_before_ending_the_session():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(COUNTER), breakpoints=[
            {"file": str(COUNTER), "line": marker(COUNTER, "loop")}])
        loop = {"file": str(COUNTER), "line": marker(COUNTER, "loop")}
        for bad, said in [({**loop, "hitCondition": "banana"}, "hitCondition"),
                          ({**loop, "condition": "i =="}, "not a valid expression"),
                          ({**loop, "maxNotifications": 3}, "goes with logMessage"),
                          ({**loop, "exceptionTypes": ["KeyError"]}, "go with exception"),
                          ({"exception": "raised", "file": str(COUNTER)}, "not both"),
                          ({"exception": "raised", "logMessage": "x"}, "no logMessage")]:
            assert said in await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(COUNTER),
                                             breakpoints=[bad]), bad
        assert "unknown exception filter" in await tools.error(
            "debug", "INVALID_ARGUMENT", mode="source", path=str(COUNTER), breakpoints=[{"exception": "sometimes"}])
        await tools.error("context", "NO_SESSION")  # known only once the adapter answered: the old session was ended
        ctx = await tools.ok("debug", mode="source", path=str(COUNTER), breakpoints=[
            {"file": str(COUNTER), "line": marker(COUNTER, "loop")}])
        for bad in [{**loop, "hitCondition": "banana"}, {**loop, "condition": "i =="}]:
            await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(COUNTER), breakpoints=[bad])
        assert (await tools.ok("context"))["location"]["line"] == ctx["location"]["line"]  # still there
        await tools.ok("stop")
