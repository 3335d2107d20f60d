"""Workflow prompts (`prompts/list`, `prompts/get`): the tool calls of a common debugging task, in order.

Every call a prompt names is written `tool {"argument": value}` between backticks, with what the agent
fills in itself as `<what>` in place of a value; tests/unit/test_prompt_calls.py reads the calls back in that
notation and checks each tool and argument against the server's tools, so a renamed tool or argument
cannot leave a prompt behind.
"""

from __future__ import annotations

import json
import os
from typing import Annotated, Any

from mcp.server.mcpserver.prompts import Prompt
from pydantic import Field

from ..adapters import PROFILES


class Hole:
    """A value the agent fills in from what an earlier call returned."""

    def __init__(self, what: str) -> None:
        assert not set(what) & set('<>"`'), "a hole's text must not end the notation"
        self.what = what


def _json(value: Any) -> str:
    if isinstance(value, Hole):
        return f"<{value.what}>"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(key)}: {_json(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_json(item) for item in value) + "]"
    return json.dumps(value)


def call(tool: str, **arguments: Any) -> str:
    """One tool call as a prompt writes it (the notation the module docstring describes)."""
    return f"`{tool} {_json(arguments)}`"


def _steps(goal: str, *steps: str) -> str:
    return goal + "\n\n" + "\n".join(f"{number}. {step}" for number, step in enumerate(steps, start=1))


def debug_failing_test(
    test: Annotated[str, Field(max_length=4096, description=(
        "The failing pytest test, as pytest names it: tests/test_x.py::test_name"))],
    cwd: Annotated[str, Field(max_length=4096, description="The project directory to run pytest in (default: the server's).")] = "",
) -> str:
    """Debug a failing Python test: stop where its exception leaves the test's code, read the state there, and
    step through the test again from an earlier line."""
    where = {"cwd": cwd} if cwd else {}
    return _steps(
        f"Find why the test {test} fails.",
        "Run it under the debugger, stopping where an exception leaves the project's own code (pytest catches "
        "it later): " + call("debug", mode="source", path=f"-m pytest {test} -x -q -p no:cacheprovider", **where,
                             breakpoints=[{"exception": "userUnhandled"}]) + ".",
        "The result is the stop: `exception` says what failed, `frames` where, `scopes` the variables of the top "
        "frame. Read a value that is cut or nested with " + call("evaluate", expression=Hole("an expression")) +
        ", another frame's variables with " + call("context", frameId=Hole("a frameId from frames")) + ".",
        "To see how the wrong value came about, set a breakpoint on an earlier line of the test or of the code "
        "it calls: " + call("breakpoint", file=Hole("file"), line=Hole("line")) + ", run it again with "
        + call("restart") + " and go line by line with " + call("step", mode="over") + " (each result lists the "
        "variables that changed) or into a call with " + call("step", mode="in") + ".",
        "Try a fix in place: " + call("set-variable", name=Hole("variable"), value=Hole("value")) + " then "
        + call("continue") + ". When done, " + call("stop") + ".",
    )


def is_source(program: str) -> bool:
    """`program` is a file an adapter runs or builds from source (a `.py`, `.js`, `.c`, `.go`...), run with mode
    `source`; anything else is taken for an executable. The adapters' own extensions decide, so a language added
    to them is not run as a binary here."""
    ext = os.path.splitext(program)[1].lower()
    return bool(ext) and any(ext in profile.extensions for profile in PROFILES.values())


def diagnose_crash(
    program: Annotated[str, Field(max_length=4096, description="The program that crashes: a .py script, a .js/.ts file, a .c/.cpp/.rs source, a Go file or package, or an executable.")],
    args: Annotated[str, Field(max_length=4096, description="Its command-line arguments, separated by spaces.")] = "",
    core: Annotated[str, Field(max_length=4096, description=(
        "A core file the crash left (C, C++, Rust, Go), when the program is an executable: read it instead of "
        "running the program."))] = "",
) -> str:
    """Diagnose a crash (an uncaught exception, a segmentation fault, a panic, an abort), or a core file it left:
    run the program to it, or open the core, and read the stack, the variables of each frame and, in native code,
    the memory involved."""
    if core:
        first = ("Open the core with the executable it is of: " + call("debug", mode="core", path=program, core=core)
                 + ". The program does not run: moving it is refused, and an expression that calls a function "
                 "cannot be evaluated.")
    else:
        mode = "source" if is_source(program) else "binary"
        first = ("Run it until it crashes (a Python or JavaScript program stops at an uncaught exception or an "
                 "unhandled rejection, a native one at the signal, a Go one at the panic): "
                 + call("debug", mode=mode, path=program, args=args.split()) + ".")
    return _steps(
        f"Find why {program} crashes.",
        first,
        "The result is the stop: `reason`, `exception` and `frames` (innermost first). Read the variables of "
        "the frame that holds the program's own code with " + call("context", frameId=Hole("its frameId"),
                                                                    maxFrames=50) + ".",
        "Check the values the crash used: " + call("evaluate", expression=Hole("a pointer, an index, a length"),
                                                   frameId=Hole("frameId")) + "; in C, C++ or Rust, the bytes "
        "a pointer points at with " + call("memory", expression=Hole("*pointer"), count=64) + " (a pointer into "
        "freed or unmapped memory shows as unreadable), and in native code or Go the instructions at the crash "
        "with " + call("disassemble") + ".",
        ("If the bad value was made earlier, find where from the frames' values, then run the program (mode "
         "binary) to a breakpoint there." if core else
         "If the bad value was made earlier, stop where it is made: " + call("breakpoint", file=Hole("file"),
                                                                              line=Hole("line")) + " and "
         + call("restart") + ", or watch it change (see the prompt find-who-changed)."),
        "When done, " + call("stop") + ".",
    )


def find_who_changed(
    program: Annotated[str, Field(max_length=4096, description="The program: a .c/.cpp/.rs source, a Go file or package, an executable, or a .py script.")],
    variable: Annotated[str, Field(max_length=4096, description="The value that goes wrong: a variable, a field (order.total, p->next) or an array element (items[3]).")],
    function: Annotated[str, Field(max_length=4096, description="A function in which `variable` can be named (for a local: its function; default main).")] = "main",
) -> str:
    """Find the line that changed a value: stop where the value can be named, watch it (a data breakpoint), and
    let the program run to each write."""
    return _steps(
        f"Find who changes {variable} in {program}.",
        "C or C++: go back from the wrong value rather than run again. Record from the start under gdb: "
        + call("debug", mode="source", path=program, adapter="gdb", record=True, stopOnEntry=True) + ", run to "
        "where the value is wrong (a crash stops by itself): " + call("continue", to={"function": function})
        + " or a breakpoint, watch it there: " + call("breakpoint", watch=variable) + ", and go back to the last "
        "write before now: " + call("continue", reverse=True) + ": the line that wrote, `watches` with the value "
        "before and the value written, `replay: true`. Again for the write before it; " + call("step", mode="back")
        + " steps back a line. Recording is slow: keep the span short. Otherwise, forward:",
        "Start where the value exists: " + call("debug", mode="source", path=program,
                                                breakpoints=[{"function": function}]) + ".",
        "Watch it: " + call("breakpoint", watch=variable) + " (`access` \"read\" or \"readWrite\" for reads "
        "too). A watch on a local goes away when its function returns; `breakpointNotes` says so.",
        "Run to the next write: " + call("continue") + ". The stop's `reason` is `data breakpoint`, its location "
        "the line that wrote, and `watches` gives the old and new value. To stop only at the write that makes it "
        "wrong (lldb): " + call("breakpoint", id=Hole("the watch id"), condition=Hole("a test of the new value")) + ".",
        "Read who called the writer in `frames`, and its variables with " + call("context", frameId=Hole("frameId"))
        + ".",
        "Python (debugpy) has no watches and answers NOT_SUPPORTED: put a breakpoint with a condition "
        "on each line that assigns it instead: " + call("breakpoint", file=Hole("file"), line=Hole("a line that "
                                                        "assigns it"), condition=Hole("a test of the values it uses"))
        + ", then " + call("step", mode="over") + " over it (`changes` gives the old and new value).",
        "When done, " + call("stop") + ".",
    )


def attach_to_service(
    processId: Annotated[str, Field(max_length=20, description="The running service's process id (or give address).")] = "",
    address: Annotated[str, Field(max_length=4096, description="host:port of a debug adapter the service listens with, e.g. `python -m debugpy --listen` or `dlv dap --listen` (instead of processId).")] = "",
    file: Annotated[str, Field(max_length=4096, description="The source file of the code a request runs.")] = "",
    line: Annotated[str, Field(max_length=20, description="The line in `file` to stop at.")] = "",
) -> str:
    """Attach to a running service (a web server, a worker), stop it where a request is handled, and let it go
    on afterwards."""
    start = call("debug", mode="connect", address=address) if address else call(
        "debug", mode="attach", processId=int(processId) if processId.isdigit() else Hole("the process id"))
    place = {"file": file or Hole("file"), "line": int(line) if line.isdigit() else Hole("line")}
    return _steps(
        "Debug the running service without restarting it.",
        "Join it: " + start + " (find a process id with `pgrep -f`; ptrace may need to be allowed for attach).",
        "Stop where a request is handled: " + call("breakpoint", **place) + ".",
        "Send it a request yourself (curl, a client), then wait for the stop: " + call("wait", timeout=120)
        + "; the result is the stop, with the request's variables.",
        "Read further with " + call("evaluate", expression=Hole("an expression")) + " and " + call(
            "step", mode="over") + "; let it serve on with " + call("continue", timeout=1) + " (it answers "
        "`running` while it waits for the next request).",
        "Leave it running when done: " + call("clear-breakpoints", all=True) + " then " + call("stop")
        + " (an attached program is detached from, not ended).",
    )


def compare_runs(
    program: Annotated[str, Field(max_length=4096, description="The program to run twice.")],
    file: Annotated[str, Field(max_length=4096, description="The source file of a place both runs pass.")],
    line: Annotated[str, Field(max_length=20, description="The line in `file` to compare the state at.")],
    workingArgs: Annotated[str, Field(max_length=4096, description="The arguments of the run that works, separated by spaces.")] = "",
    brokenArgs: Annotated[str, Field(max_length=4096, description="The arguments of the run that goes wrong, separated by spaces.")] = "",
) -> str:
    """Compare a broken run with a working one: run both (as two sessions), stop both at the same place, and
    diff their state there."""
    at = [{"file": file, "line": int(line) if line.isdigit() else Hole("line")}]
    return _steps(
        f"Find how the broken run of {program} differs from the working one.",
        "Start the working run: " + call("debug", mode="source", path=program, args=workingArgs.split(),
                                         breakpoints=at) + "; note its `sessionId`.",
        "Record its state there: " + call("snapshot_create", label="working", depth=2,
                                          sessionId=Hole("the working sessionId")) + "; note the snapshot id.",
        "Start the broken run beside it: " + call("debug", mode="source", path=program, args=brokenArgs.split(),
                                                  breakpoints=at) + ", and record it: " + call(
            "snapshot_create", label="broken", depth=2, sessionId=Hole("the broken sessionId")) + ".",
        "Diff them: " + call("snapshot_diff", snapshot_id_1=Hole("the working snapshot id"),
                             snapshot_id_2=Hole("the broken snapshot id")) + ". If they agree there, go on in "
        "both, " + call("continue", sessionId=Hole("each sessionId")) + ", and diff again at the next stop.",
        "When done, " + call("stop", all=True) + ".",
    )


PROMPTS = (
    ("debug-failing-test", "Debug a failing test", debug_failing_test),
    ("diagnose-crash", "Diagnose a crash", diagnose_crash),
    ("find-who-changed", "Find who changed a value", find_who_changed),
    ("attach-to-service", "Attach to a running service", attach_to_service),
    ("compare-runs", "Compare a broken run with a working one", compare_runs),
)


def prompts() -> list[Prompt]:
    """The workflow prompts, for `MCPServer.add_prompt`; each one's docstring is its description."""
    return [Prompt.from_function(fn, name=name, title=title, description=" ".join((fn.__doc__ or "").split()))
            for name, title, fn in PROMPTS]
