"""What a stop costs and how a session starts (issue 23, points 6, 7 and 9), on real debugpy over stdio,
with the standard library's own code where it matters."""

from __future__ import annotations

import json
import logging
import shutil
import sys
from pathlib import Path

import pytest

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


UNITTEST = '''import unittest


def total(items):
    assert sum(items) == 7, "bad total"
    return sum(items)


class Totals(unittest.TestCase):
    def test_total(self):
        total([1, 2, 3])


if __name__ == "__main__":
    unittest.main()
'''


async def test_an_exception_a_library_catches_reads_as_its_type_with_plain_frame_names(tmp_path):
    """unittest catches the test's AssertionError: debugpy's userUnhandled stop appended a note to the type
    and '(Current frame)' to a function's name."""
    program = tmp_path / "test_totals.py"
    program.write_text(UNITTEST)
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(program), breakpoints=[{"exception": "userUnhandled"}])
        exception = ctx["exception"]
        assert (exception["typeName"], exception["exceptionId"], exception["message"]) == \
            ("AssertionError", "AssertionError", "bad total")
        assert "paused in `test_total`" in exception["description"]
        assert [f["function"] for f in ctx["frames"]] == ["total", "test_total", "<module>"]
        assert "Current frame" not in exception["stackTrace"] and "in test_total\n" in exception["stackTrace"]
        await tools.ok("stop")


async def test_an_uncaught_traceback_in_the_output_holds_the_programs_frames_only():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(RAISES), breakpoints=[{"exception": "uncaught"}])
        ended = await tools.ok("continue")
        text = ended["output"]["text"]
        assert "KeyError: 'colour'" in text and 'raises.py", line 22, in <module>\n    main()\n' in text
        assert "debugpy" not in text and "runpy" not in text and "_run_code" not in text, text
        assert text.startswith("Traceback (most recent call last):\n  File ") and "    ^" not in text.split("File")[0]
        assert ended["exitCode"] == 1
        await tools.ok("stop")


async def test_a_failed_connect_in_the_program_shows_no_frame_of_dap2mcps():
    """The TCP_NODELAY fix is for pydevd's own socket: the program's connects do not pass through dap2mcp's
    code, which put a `_connect_nodelay` frame of sitecustomize.py in the program's tracebacks."""
    async with stdio_tools() as tools:
        stopped = await tools.ok("debug", mode="source", path=str(PROGRAMS / "refused.py"))
        assert stopped["reason"] == "exception" and stopped["location"]["function"] == "fetch", stopped
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 1, ended
        text = ended["output"]["text"]
        assert "ConnectionRefusedError" in text and "in fetch\n" in text, text
        assert "sitecustomize" not in text and "_connect_nodelay" not in text, text
        await tools.ok("stop")


async def test_a_module_with_its_arguments_as_path_runs_them_and_module_with_path_is_refused(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("def test_one():\n    value = 41 + 1\n    assert value == 42\n")
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path="-m pytest tests/test_x.py -x -p no:cacheprovider",
                             cwd=str(tmp_path), python=sys.executable,
                             breakpoints=[{"file": "tests/test_x.py", "line": 3}])
        assert ctx["location"] == {"file": "tests/test_x.py", "line": 3, "function": "test_one",
                                   "text": "assert value == 42"}
        ended = await tools.ok("continue")
        assert ended["exitCode"] == 0 and "1 passed" in ended["output"]["text"]
        for arguments, said in [({"path": "app.py", "module": "pytest"}, "not both"),
                                ({"module": "pytest tests/test_x.py"}, "in args"),
                                ({"path": "-m"}, "names no module"),
                                ({"path": "-m 'pytest"}, "cannot read")]:
            assert said in await tools.error("debug", "INVALID_ARGUMENT", mode="source", cwd=str(tmp_path), **arguments)


async def test_setting_a_variable_to_an_undefined_name_says_which():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(COUNTER), breakpoints=[
            {"file": str(COUNTER), "line": marker(COUNTER, "work")}])
        message = await tools.error("set-variable", "ADAPTER_ERROR", name="value", value="value + undefined_name")
        assert "NameError: name 'undefined_name' is not defined" in message
        assert "not an expression" in await tools.error("set-variable", "ADAPTER_ERROR", name="value", value="1 +")
        assert (await tools.ok("set-variable", name="value", value="value + 1"))["value"] == "2"  # still usable
        await tools.ok("stop")


GRACEFUL = PROGRAMS / "graceful.py"
WORKERS = PROGRAMS / "workers.py"


async def test_stop_with_a_signal_lets_the_program_run_its_handlers_and_exit_handlers(tmp_path):
    log = tmp_path / "log"
    beat = {"file": str(GRACEFUL), "line": marker(GRACEFUL, "beat")}
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(GRACEFUL), args=[str(log)], breakpoints=[beat])
        stopped = await tools.ok("stop", signal="SIGTERM")  # paused at a breakpoint it would hit again
        assert (stopped["exitCode"], stopped["description"]) == (3, "the program ended after SIGTERM")
        assert log.read_text() == "sigterm handler\natexit\n"
        assert "settrace" not in (stopped.get("output") or "")  # not taken inside the debugger's own wait

        log.unlink()
        await tools.ok("debug", mode="source", path=str(GRACEFUL), args=[str(log)], breakpoints=[beat])
        await tools.ok("continue", timeout=0.3)  # a breakpoint every beat: paused again
        stopped = await tools.ok("stop", signal="SIGINT")
        assert stopped["description"] == "the program ended after SIGINT" and log.read_text() == "atexit\n"
        assert stopped["exitCode"] == 130  # as a shell says it (debugpy reports Python's -2 as 254)
        assert "KeyboardInterrupt" in stopped["output"]

        log.unlink()
        await tools.ok("debug", mode="source", path=str(GRACEFUL), args=[str(log), "stubborn"], breakpoints=[beat])
        stopped = await tools.ok("stop", signal="SIGTERM", timeout=1)
        assert "not ended 1s after SIGTERM" in stopped["description"] and "exitCode" not in stopped
        assert not log.exists()  # ended without its exit handlers: it ignored the signal
        await tools.error("stop", "NO_SESSION", signal="SIGTERM")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_stop_with_a_signal_under_a_native_debugger_runs_the_programs_handlers(adapter: str):
    """lldb and gdb stop the program when it gets the signal; it is passed on as the program runs again."""
    program = PROGRAMS / "graceful.c"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(program), adapter=adapter,
                             breakpoints=[{"file": str(program), "line": marker(program, "beat")}])
        assert ctx["state"] == "paused"
        stopped = await tools.ok("stop", signal="SIGTERM")
        assert (stopped["exitCode"], stopped["description"]) == (4, "the program ended after SIGTERM")
        assert "asked to end after" in stopped["output"] and "exit handler ran" in stopped["output"]


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_stop_with_a_signal_the_program_ignores_says_what_ended_it(adapter: str):
    """A program that ignores the signal and then aborts on its own: the answer said "ended after SIGTERM" beside
    the exit code of SIGABRT, as if the signal had ended it (found by an exploratory user, under gdb)."""
    program = PROGRAMS / "ignores_term.c"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(program), adapter=adapter,
                             breakpoints=[{"file": str(program), "line": marker(program, "ignoring")}])
        assert ctx["state"] == "paused"
        stopped = await tools.ok("stop", signal="SIGTERM", timeout=20)
        assert stopped["exitCode"] == 134, stopped
        assert stopped["description"] == ("the program ended after SIGTERM, but not by it: it was killed by SIGABRT "
                                           "(exit code 134, as a shell reports it)"), stopped


async def test_a_program_that_starts_a_process_says_the_process_runs_undebugged():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(WORKERS), args=["30"], childProcesses=False, breakpoints=[
            {"file": str(WORKERS), "line": marker(WORKERS, "work")},
            {"file": str(WORKERS), "line": marker(WORKERS, "started")}])
        assert ctx["location"]["line"] == marker(WORKERS, "started")
        pid = (await tools.ok("evaluate", expression="child.pid"))["value"]
        assert f"1 process that runs without the debugger: {pid} (the program again)" in ctx["hint"]
        ctx = await tools.ok("continue", timeout=1)  # the child's breakpoint never stops
        assert ctx["state"] == "running" and "without the debugger" not in ctx["hint"]  # said once
        await tools.ok("stop")


async def test_evaluate_under_pytest_capture_says_where_the_print_went(tmp_path):
    (tmp_path / "test_y.py").write_text("def test_one():\n    items = [1, 2, 3]\n    assert sum(items) == 6\n")
    async with stdio_tools() as tools:
        for extra, held in [([], True), (["-s"], False), (["-xs"], False), (["--capture=no"], False)]:
            await tools.ok("debug", mode="source", module="pytest", args=["test_y.py", "-p", "no:cacheprovider", *extra],
                           cwd=str(tmp_path), python=sys.executable, breakpoints=[{"file": "test_y.py", "line": 3}])
            printed = await tools.ok("evaluate", expression="print('items are', items)")
            if held:
                assert "'-s'" in printed["hint"] and "output" not in printed
            else:
                assert printed["output"] == "items are [1, 2, 3]\n" and "hint" not in printed
            assert "hint" not in await tools.ok("evaluate", expression="items")
        await tools.ok("stop")


async def test_a_step_out_of_a_function_or_over_its_call_shows_what_it_returned():
    """debugpy's `showReturnValue`: the value lands in the caller's locals as `(return) total` and stays listed
    until the next return; it is the context's `returned` at the step that made it, and in no scope."""
    program = PROGRAMS / "returns.py"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program),
                       breakpoints=[{"file": str(program), "line": marker(program, "return")}])
        out = await tools.ok("step", mode="out")
        assert out["location"]["line"] == marker(program, "call"), out
        assert out["returned"] == [{"function": "total", "value": "12", "type": "int"}], out
        assert not any(v["name"].startswith("(return)") for s in out["scopes"] for v in s["variables"]), out
        over = await tools.ok("step", mode="over")  # the rest of the line: no function returned
        assert over["location"]["line"] == marker(program, "print") and "returned" not in over, over
        assert over["changes"]["added"] == [{"name": "result", "type": "int", "value": "12"}], over
        await tools.ok("step", mode="over")
        called = await tools.ok("step", mode="over")  # over a line that calls half
        assert called["returned"] == [{"function": "half", "value": "6", "type": "int"}], called
        await tools.ok("stop")


async def test_an_uncaught_exception_stop_says_the_stack_has_unwound():
    """pydevd stops at an uncaught exception once it has left every frame: the `with` block's exit has run
    (`log` holds "closed", the cleanup printed), which the stop showed as if paused where it was raised."""
    program = PROGRAMS / "unwinds.py"
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(program))
        assert stop["reason"] == "exception" and stop["location"]["line"] == marker(program, "raise"), stop
        assert locals_of(stop)["log"] == "['open', 'closed']", stop
        description = stop["exception"]["description"]
        assert description.startswith("division by zero (uncaught: the stack has unwound"), description
        assert "context managers' exits have run" in description, description
        await tools.ok("stop")


async def test_a_step_back_onto_a_multi_line_statements_first_line_is_a_step_not_a_breakpoint_hit():
    """Python runs the argument lines, then the call at the statement's first line: a step over them came back
    to the breakpoint there as `reason: breakpoint`, counted as a hit, though the statement was stopped at."""
    program = PROGRAMS / "multi_line.py"
    call = marker(program, "call")
    async with stdio_tools() as tools:
        first = await tools.ok("debug", mode="source", path=str(program), breakpoints=[{"file": str(program), "line": call}])
        assert first["reason"] == "breakpoint" and first["location"]["line"] == call, first
        steps = [await tools.ok("step", mode="over") for _ in range(4)]
        assert [(s["reason"], s["location"]["line"]) for s in steps] == [
            ("step", call + 1), ("step", call + 2), ("step", call), ("step", marker(program, "after"))], steps
        assert all("breakpointIds" not in s for s in steps), steps
        again = await tools.ok("continue")  # the second call of main: the breakpoint's own stop
        assert again["reason"] == "breakpoint" and again["location"]["line"] == call, again
        listed = await tools.ok("breakpoint", id=first["breakpointIds"][0], enabled=True)
        assert listed["hitCount"] == 2, listed
        await tools.ok("stop")
