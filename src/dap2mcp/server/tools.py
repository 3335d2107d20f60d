"""The 13 tools of seed 003, plus `wait` and `output`. Each parses its input, calls the debugger, shapes the result."""

from __future__ import annotations

import contextlib
import shlex
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from ..adapters import Target
from ..errors import DebugError, ErrorCode
from ..session.debugger import DEFAULT_WAIT, EVALUATE_TIMEOUT, MAX_EVALUATE_DEPTH, MEMORY_BYTES, THREAD_FRAMES, Debugger
from ..session.specs import (
    MAX_PATH_MAPPINGS,
    PATH_CHARS,
    TEXT_CHARS,
    Access,
    BreakpointChange,
    BreakpointSpec,
    Condition,
    Enabled,
    ExceptionFilter,
    ExceptionTypes,
    File,
    Function,
    HitCondition,
    Line,
    Location,
    LogMessage,
    MaxNotifications,
    PathMapping,
    Text,
    Watch,
)
from . import results as r

Timeout = Annotated[float, Field(gt=0, le=3600, description="Seconds to wait for a stop before returning state 'running'.")]
ThreadId = Annotated[int | None, Field(description="Thread id (default: the thread that stopped).")]
FrameId = Annotated[int | None, Field(description="Frame id from `context` (default: top frame).")]
SessionId = Annotated[str | None, Field(max_length=100, description=(
    "The session to act on, as `debug` named it (default: the current one: the one last started, or whose "
    "stop was last returned)."))]


def annotations(*, read_only: bool = False, destructive: bool = False, idempotent: bool = False) -> ToolAnnotations:
    return ToolAnnotations(read_only_hint=read_only, destructive_hint=destructive,
                           idempotent_hint=idempotent, open_world_hint=False)


def tool_decorator(tools: list[Tool], name: str, title: str | None = None, **hints: bool) -> Any:
    """Add a tool to `tools`, which the server is built with; its docstring, as one paragraph, is the
    description an agent reads.

    The output schema is published from the result model in the return annotation. The SDK would also
    check each result against that model, but every result is dumped from an instance of it (`results.ok`),
    so the check repeats pydantic's own work on every call; the model is taken off the tool's metadata,
    which the SDK reads live, and the schema stays."""
    def register(fn: Any) -> Any:
        description = " ".join((fn.__doc__ or "").split())
        tool = Tool.from_function(fn, name=name, title=title, description=description,
                                  annotations=annotations(**hints), structured_output=True)
        tool.fn_metadata.output_model = None
        tools.append(tool)
        return fn
    return register


def register_tools(tools: list[Tool], debugger: Debugger) -> None:  # noqa: C901 - one closure per tool
    def tool(name: str, **hints: bool) -> Any:
        return tool_decorator(tools, name, **hints)

    @tool("debug", destructive=True)
    async def debug(
        mode: Annotated[Literal["source", "binary", "test", "attach", "connect"], Field(description=(
            "'source' builds (C, C++, Rust; Go through Delve) and launches a program, 'binary' launches an "
            "executable or script as is, 'test' runs a project's tests (pytest, go test, cargo test, node:test, mocha, Jest, Vitest) and stops where the "
            "first failing test fails, 'attach' joins a running process, 'connect' reaches a debug adapter "
            "already listening at `address`."))],
        path: Annotated[str | None, Field(max_length=PATH_CHARS, description=(
            "Program to debug: a .py script or '-m package.module', a .c/.cpp/.rs source file, a Go file or "
            "package directory, a Cargo project directory, or an executable (mode 'binary'). Mode 'test': a pytest "
            "node id (tests/test_x.py::test_y), test file or directory, a Go package or a Cargo project directory, a JavaScript or TypeScript test file or project directory.") )] = None,
        test: Annotated[str | None, Field(max_length=TEXT_CHARS, description=(
            "Mode 'test': run only the tests this names, as the runner's filter takes it (pytest's `-k`, "
            "go test's `-run` pattern, a Rust test name's part, node:test's `--test-name-pattern`, mocha's `--grep`, Jest's and Vitest's `-t`)."))] = None,
        bin: Annotated[str | None, Field(max_length=TEXT_CHARS, description=(
            "Mode 'source' with a Cargo project directory: which binary to build and run (cargo's `--bin`); "
            "needed where the project has several."))] = None,
        module: Annotated[str | None, Field(max_length=PATH_CHARS, description="Run this Python module like `python -m` instead of a path.")] = None,
        processId: Annotated[int | None, Field(gt=0, description="Process to attach to (mode 'attach').")] = None,
        address: Annotated[str | None, Field(max_length=PATH_CHARS, description=(
            "host:port of a listening adapter (mode 'connect'), e.g. a `python -m debugpy --listen` or "
            "`dlv dap --listen`; with adapter 'node', a Node inspector's (`node --inspect`)."))] = None,
        args: Annotated[list[str] | None, Field(description=(
            "Command-line arguments for the program (mode 'test': for the test runner, e.g. ['-x']).") )] = None,
        cwd: Annotated[str | None, Field(max_length=PATH_CHARS, description="Working directory (default: the server's).")] = None,
        env: Annotated[dict[str, str] | None, Field(description="Extra environment variables.")] = None,
        breakpoints: Annotated[list[BreakpointSpec] | None, Field(description=(
            "Initial breakpoints, each as the `breakpoint` tool takes one: {file, line} or {function} or "
            "{exception, exceptionTypes}, with condition, hitCondition, logMessage, maxNotifications, enabled."))] = None,
        stopOnEntry: Annotated[bool, Field(description="Stop at the program's first line (its `main`) instead of running to a breakpoint.")] = False,
        python: Annotated[str | None, Field(max_length=PATH_CHARS, description=(
            "Interpreter for a Python program (default: the project's .venv or venv, found upward from cwd, else "
            "$VIRTUAL_ENV's, else python3 on PATH; the first answer's `interpreter` says which)."))] = None,
        adapter: Annotated[Literal["debugpy", "lldb", "gdb", "delve", "node"] | None, Field(description=(
            "Debug adapter (default: chosen from the program: debugpy for Python, lldb for C/C++/Rust, delve for "
            "Go, node for JavaScript/TypeScript; 'gdb' debugs C/C++ with gdb)."))] = None,
        tcpNoDelay: Annotated[bool, Field(description="Apply the debugpy TCP_NODELAY latency fix.")] = True,
        justMyCode: Annotated[bool, Field(description=(
            "Python: true (default) keeps `step` in the program's own code, passing over library code, and stops "
            "on exceptions where they leave it; false steps into library code too. A breakpoint stops in any "
            "file either way."))] = True,
        pathMappings: Annotated[list[PathMapping] | None, Field(max_length=MAX_PATH_MAPPINGS, description=(
            "For a program that runs elsewhere (a container, another machine; modes attach, connect, or binary for "
            "an executable built elsewhere): [{local, remote}], where `remote` is a directory as the program names "
            "it and `local` the agent's copy of it. Breakpoints are given, and locations shown, by local paths."))] = None,
        childProcesses: Annotated[bool, Field(description=(
            "Python: debug the program's child processes (multiprocessing, subprocess running Python, os.fork) "
            "as sessions of their own, with the same breakpoints; a stop in one is returned by the parent's "
            "`continue`/`wait` with the child's sessionId and parentId. false lets them run undebugged."))] = True,
        timeout: Timeout = DEFAULT_WAIT,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, r.ContextResult]:
        """Start debugging: launch a program in Python, C, C++, Rust or Go (modes source, binary), attach to a
        running process (mode attach) or connect to a debug adapter listening elsewhere (mode connect), with
        initial breakpoints. Call it first; each call starts a session beside those running (up to 8), named by
        the result's `sessionId`, and makes it the current one. Returns the context at the first stop
        (location, stack, variables, output so far), `state: running` if nothing stopped within `timeout`, or
        the exit code and output if the program ended (in mode 'test': all selected tests passed, the runner's
        summary in the output)."""
        if test is not None and mode != "test":
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "test is for mode 'test' (a name filter for the tests run)")
        if bin is not None and mode != "source":
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "bin is for mode 'source' (a Cargo project's binary)")
        if mode == "test":
            if module:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, "mode 'test' runs the test runner itself: give path "
                                 "(tests, a test file or node id, or a package directory), not module")
            target = Target(mode="test", path=path or ".", test=test, args=tuple(args or ()), cwd=cwd,
                            env=dict(env or {}), stop_on_entry=stopOnEntry, python=python, tcp_nodelay=tcpNoDelay,
                            just_my_code=justMyCode, children=childProcesses)
        elif mode == "attach":
            if processId is None:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, "mode 'attach' needs processId")
            target = Target(mode="attach", process_id=processId, path=path, just_my_code=justMyCode)
        elif mode == "connect":
            if not address:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, "mode 'connect' needs address (host:port)")
            target = Target(mode="connect", address=parse_address(address), path=path, args=tuple(args or ()),
                            cwd=cwd, env=dict(env or {}), just_my_code=justMyCode)
        else:
            path, module, args = split_module(path, module, args)
            if not path and not module:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"mode '{mode}' needs path (or module)")
            target = Target(mode=mode, path=path, module=module, args=tuple(args or ()), cwd=cwd,
                            env=dict(env or {}), stop_on_entry=stopOnEntry, python=python, tcp_nodelay=tcpNoDelay,
                            just_my_code=justMyCode, children=childProcesses, bin=bin)
        if pathMappings:
            target = target.mapped([(m.local, m.remote) for m in pathMappings])
        return _context(debugger, await debugger.debug(target, adapter=adapter, breakpoints=breakpoints or [],
                                                       timeout=timeout, progress=_progress(ctx)))

    @tool("stop", destructive=True, idempotent=True)
    async def stop(
        signal: Annotated[Literal["SIGTERM", "SIGINT"] | None, Field(description=(
            "End gracefully: send the launched program this signal first and let it run its handlers, `finally` "
            "blocks and exit handlers (Python's atexit), for up to `timeout` seconds, before ending it."))] = None,
        timeout: Annotated[float, Field(gt=0, le=60, description="Seconds to wait for the program to end after `signal`.")] = 5.0,
        sessionId: SessionId = None,
        all: Annotated[bool, Field(description="End every session (each listed in `stopped`).")] = False,
    ) -> Annotated[CallToolResult, r.StopResult]:
        """End a debug session (the current one, or `sessionId`, or `all`): terminate the program (detach if
        attached) and the debug adapter. Call it when done; with `signal`, the program may end by itself first.
        Returns the exit code if the program ended by itself, and output not yet shown."""
        if all:
            if sessionId is not None:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, "give sessionId or all, not both")
            stopped = [r.StoppedSession(**ended) for ended in await debugger.stop_all(signal, timeout)]
            return r.ok(r.StopResult(state="terminated", stopped=stopped))
        return r.ok(r.StopResult(**await debugger.stop(signal, timeout, debugger.resolve(sessionId))))

    @tool("restart", destructive=True)
    async def restart(
        args: Annotated[list[str] | None, Field(description="New arguments; omit to reuse the previous ones.")] = None,
        pathMappings: Annotated[list[PathMapping] | None, Field(max_length=MAX_PATH_MAPPINGS, description=(
            "For a program that runs elsewhere (a container, another machine; modes attach, connect, or binary for "
            "an executable built elsewhere): [{local, remote}], where `remote` is a directory as the program names "
            "it and `local` the agent's copy of it. Breakpoints are given, and locations shown, by local paths."))] = None,
        timeout: Timeout = DEFAULT_WAIT,
        sessionId: SessionId = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, r.ContextResult]:
        """Run the program again from the start with the same breakpoints and saved snapshots, with new `args`
        or the previous ones; use it to reproduce again after learning something. Returns the context at the
        first stop, as `debug` does."""
        return _context(debugger, await debugger.restart(args, timeout, progress=_progress(ctx),
                                                         session_id=debugger.resolve(sessionId)))

    @tool("breakpoint")
    async def breakpoint(
        file: File = None,
        line: Line = None,
        text: Text = None,
        function: Function = None,
        exception: ExceptionFilter = None,
        exceptionTypes: ExceptionTypes = None,
        watch: Watch = None,
        access: Access = None,
        condition: Condition = None,
        hitCondition: HitCondition = None,
        logMessage: LogMessage = None,
        maxNotifications: MaxNotifications = None,
        enabled: Enabled = None,
        id: Annotated[int | None, Field(description=(
            "Change this existing breakpoint instead (enabled, condition, hitCondition, logMessage, ...).")
        )] = None,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.BreakpointResult]:
        """Set a breakpoint at file+line (or file+text: the line whose code contains `text`), on a function, or on exceptions, optionally with a condition, a hit
        condition or a log message (a tracepoint, which logs without stopping); or a watch (`watch`, a data
        breakpoint: stop where the value an expression names is written, or read; set while paused where the
        expression can be named); or change one by `id`. Returns its id, whether the adapter verified it, and
        its hit count."""
        sid = debugger.resolve(sessionId)
        options = {"exceptionTypes": exceptionTypes, "condition": condition, "hitCondition": hitCondition,
                   "logMessage": logMessage, "maxNotifications": maxNotifications, "enabled": enabled}
        if id is not None:
            if file or line or text or function or exception or watch or access:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, "with id, give only what changes, not a new place")
            view = await debugger.update_breakpoint(id, BreakpointChange(**options), sid)
        else:
            view = await debugger.add_breakpoint(BreakpointSpec(file=file, line=line, text=text, function=function,
                                                                exception=exception, watch=watch, access=access,
                                                                **options), sid)
        return r.ok(view, files_from=debugger.files_from(sid), session_id=sid)  # a BreakpointView is a BreakpointResult but for `success`

    @tool("clear-breakpoints", destructive=True, idempotent=True)
    async def clear_breakpoints(
        file: Annotated[str | None, Field(max_length=PATH_CHARS, description="Remove every breakpoint in this file.")] = None,
        ids: Annotated[list[int] | None, Field(description="Remove these breakpoint ids.")] = None,
        all: Annotated[bool, Field(description="Remove every breakpoint.")] = False,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.ClearResult]:
        """Remove breakpoints: those in `file`, those with `ids`, or `all` (give at least one). Returns the ids
        removed and how many remain."""
        if not (file or ids or all):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "give file, ids or all=true")
        sid = debugger.resolve(sessionId)
        removed = await debugger.clear_breakpoints(file, ids, all, sid)
        return r.ok(r.ClearResult(removed=removed, remaining=debugger.breakpoints_kept(sid)), session_id=sid)

    @tool("continue")
    async def continue_(
        threadId: Annotated[int | None, Field(description="Resume only this thread (default: all).")] = None,
        to: Annotated[Location | None, Field(description="Run to {file, line} or {function} (a temporary breakpoint).")] = None,
        timeout: Timeout = DEFAULT_WAIT,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.ContextResult]:
        """Resume the paused program until it stops again (a breakpoint, an exception, or `to`: run to
        {file, line} or {function}), ends, or `timeout` passes. Returns the context at the stop, the exit code and
        final output at the end, or `state: running` (then `wait` or `pause`)."""
        return _context(debugger, await debugger.continue_(threadId, to, timeout, debugger.resolve(sessionId)))

    @tool("step")
    async def step(
        mode: Annotated[Literal["over", "in", "out"], Field(description="'over' the next line, 'in' to a call, 'out' of this function.")],
        threadId: ThreadId = None,
        timeout: Timeout = DEFAULT_WAIT,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.ContextResult]:
        """Step the paused program: `over` runs the current line, `in` enters the call on it, `out` finishes the
        current function. Returns the context at the new location, with `changes`: the variables that changed
        since the previous stop."""
        return _context(debugger, await debugger.step(mode, threadId, timeout, debugger.resolve(sessionId)))

    @tool("wait", read_only=True)
    async def wait(timeout: Timeout = DEFAULT_WAIT, sessionId: SessionId = None) -> Annotated[CallToolResult, r.ContextResult]:
        """Wait for the running program's next stop without resuming it (after a call that timed out, or
        while tracepoints log); returns the context at the stop, at the exit, or `running` after the timeout."""
        return _context(debugger, await debugger.wait(timeout, debugger.resolve(sessionId)))

    @tool("output", read_only=True, idempotent=True)
    async def output(
        offset: Annotated[int, Field(ge=0, description="Where to start, in characters from the beginning.")] = 0,
        limit: Annotated[int, Field(ge=1, le=100_000, description="Most characters to return.")] = 8000,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.OutputResult]:
        """Read the program's whole output (stdout, stderr, tracepoint messages) in pages; `nextOffset` is where
        the next page starts and `end` how much there is. The last 1,000,000 characters are kept."""
        sid = debugger.resolve(sessionId)
        return r.ok(r.OutputResult(**debugger.output(offset, limit, sid)), session_id=sid)

    @tool("pause", idempotent=True)
    async def pause(
        threadId: Annotated[int | None, Field(description="Thread to pause (default: all).")] = None,
        timeout: Timeout = 10.0,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.ContextResult]:
        """Interrupt the running program (a hang, a long loop, or after `continue` returned `running`). Returns
        the context where it stopped."""
        return _context(debugger, await debugger.pause(threadId, timeout, debugger.resolve(sessionId)))

    @tool("context", read_only=True, idempotent=True)
    async def context(
        threadId: ThreadId = None,
        frameId: FrameId = None,
        maxFrames: Annotated[int, Field(ge=1, le=1000, description="Most stack frames to return.")] = 20,
        scopes: Annotated[list[Annotated[str, Field(max_length=100)]] | None, Field(max_length=10, description=(
            "Also list these scopes, which stops only name (`expensive`): e.g. ['Globals'] for a Python module's "
            "globals, ['Registers'] under lldb."))] = None,
        threadsOffset: Annotated[int, Field(ge=0, le=1_000_000, description=(
            "List the threads from this place in the program's list on (50 at a time; `threadsNext` gives the "
            "next page's offset)."))] = 0,
        libraryFrames: Annotated[bool, Field(description=(
            "List the frames below the program's own too (a test harness's, the runtime's start), which answers "
            "fold into `framesFolded`."))] = False,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.ContextResult]:
        """Read again where the paused program is: location, stack frames, variables of a frame (`frameId` from
        `frames`, default the top one), exception details, threads. Execution tools already return this; use it
        to look at another frame or thread, or at the scopes a stop only names (`scopes`)."""
        return _context(debugger, await debugger.context(threadId, frameId, maxFrames, scopes, threadsOffset,
                                                                 debugger.resolve(sessionId), libraryFrames))

    @tool("evaluate", destructive=True)
    async def evaluate(
        expression: Annotated[str, Field(min_length=1, description="Expression (or statement) to evaluate.")],
        frameId: FrameId = None,
        timeout: Annotated[float, Field(gt=0, le=3600, description=(
            "Seconds the evaluation may run; past them it is interrupted where the adapter can (debugpy) and "
            "the call answers TIMEOUT."))] = EVALUATE_TIMEOUT,
        depth: Annotated[int, Field(ge=0, le=MAX_EVALUATE_DEPTH, description=(
            "Levels of the value's members to list in `children` besides its text (0: the text alone). Parts "
            "still cut are named in `leftOut`."))] = 0,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.ValueResult]:
        """Evaluate an expression in the paused program (top frame, or `frameId`), e.g. to inspect a value or
        call a function; it may change program state. Returns the value (bounded, `truncated` if cut), its type,
        and what the program printed meanwhile. Where the value's text leaves nested parts out (`[[...], [...]]`),
        `leftOut` names them and `expand` says how to see them: a `depth`, or each part's own expression."""
        sid = debugger.resolve(sessionId)
        return r.ok(r.ValueResult(**await debugger.evaluate(expression, frameId, timeout, sid, depth)), session_id=sid)

    @tool("set-variable", destructive=True, idempotent=True)
    async def set_variable(
        name: Annotated[str, Field(min_length=1, max_length=TEXT_CHARS, description=(
            "Variable name, or a path like obj.field, items[2] or ptr->field (a pointer's fields by . too).")
        )],
        value: Annotated[str, Field(description="New value, as an expression in the program's language.")],
        frameId: FrameId = None,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.SetVariableResult]:
        """Change a variable of the paused program (top frame, or `frameId`) to test a fix without restarting;
        `value` is an expression. Returns the new value and type."""
        sid = debugger.resolve(sessionId)
        return r.ok(r.SetVariableResult(**await debugger.set_variable(name, value, frameId, sid)), session_id=sid)

    @tool("info", read_only=True, idempotent=True)
    async def info(
        type: Annotated[Literal["sources", "modules", "sessions", "threads"], Field(description=(
            "'sources' (loaded source files), 'modules', 'sessions' (every debug session running), or 'threads' "
            "(every thread of the program and where it is)."))],
        maxFrames: Annotated[int, Field(ge=1, le=100, description="Type 'threads': most frames shown per thread.")] = THREAD_FRAMES,
        offset: Annotated[int, Field(ge=0, description="Types 'sources' and 'modules': the first item listed.")] = 0,
        limit: Annotated[int, Field(ge=1, le=1000, description="Types 'sources' and 'modules': most items listed.")] = 200,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.InfoResult]:
        """List what the program has loaded: `sources` (files) or `modules`, e.g. to find a file's path for a
        breakpoint (the program's own files first, then libraries' and the runtime's; `limit` items from `offset`,
        200 by default, with the total); the debug `sessions` running: sessionId, parentId,
        program, pid, adapter, state, and where each is paused; or the program's `threads`, each with its
        innermost frames and its state: `stopped` (held by the debugger), `blocked` (inside a call into native
        code such as a lock's acquire, which a pause cannot interrupt; `waitingIn` says on what) or `running`.
        Python reads its threads from the process itself, so this works while the program runs too (a
        deadlock); other adapters list them at a stop."""
        if type == "sessions":
            return r.ok(r.InfoResult(**debugger.list_sessions()))
        sid = debugger.resolve(sessionId)
        return r.ok(r.InfoResult(**await debugger.info(type, sid, maxFrames, offset, limit)), session_id=sid)

    @tool("disassemble", read_only=True, idempotent=True)
    async def disassemble(
        memoryReference: Annotated[str | None, Field(min_length=1, description=(
            "Address to start at, e.g. a frame's instructionPointer (default: the current instruction)."))] = None,
        instructionOffset: Annotated[int, Field(ge=-100_000, le=100_000, description=(
            "Instructions to skip from the address (negative: before it)."))] = 0,
        instructionCount: Annotated[int, Field(ge=1, le=2000)] = 20,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.DisassembleResult]:
        """Disassemble machine code at a memory reference, by default where the program is paused (C, C++, Rust
        and Go; debugpy answers NOT_SUPPORTED)."""
        sid = debugger.resolve(sessionId)
        return r.ok(r.DisassembleResult(**await debugger.disassemble(memoryReference, instructionOffset,
                                                                      instructionCount, sid)), session_id=sid)

    @tool("memory", read_only=True, idempotent=True)
    async def memory(
        memoryReference: Annotated[str | None, Field(min_length=1, max_length=200, description=(
            "Where to read: an address (0x…), such as a frame's `instructionPointer` or a row of an earlier "
            "`memory` answer.")
        )] = None,
        expression: Annotated[str | None, Field(min_length=1, max_length=TEXT_CHARS, description=(
            "Instead: read where the value this expression names lies (a variable, a field, an array element; "
            "`*p` for what p points at)."))] = None,
        offset: Annotated[int, Field(ge=-1_000_000, le=1_000_000, description="Bytes to skip from there (negative: before it).")] = 0,
        count: Annotated[int, Field(ge=1, le=MEMORY_BYTES, description=f"Bytes to read (at most {MEMORY_BYTES}).")] = 256,
        frameId: FrameId = None,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.MemoryResult]:
        """Read the paused program's raw memory (C, C++, Rust, Go): at a memory reference, or at the address of
        what `expression` names (in `frameId`, default the focused frame). Returns rows of 16 bytes: address,
        hex bytes and the printable characters. debugpy (Python) answers NOT_SUPPORTED."""
        if (memoryReference is None) == (expression is None):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "give memoryReference or expression (one of them)")
        sid = debugger.resolve(sessionId)
        return r.ok(r.MemoryResult(**await debugger.memory(memoryReference, expression, offset, count, frameId, sid)),
                    session_id=sid)


def _progress(ctx: Context | None) -> Any:
    """Progress notifications for a slow start, sent only if the client's request asked for them."""
    steps = 0

    async def report(message: str) -> None:
        nonlocal steps
        steps += 1
        if ctx is not None:
            with contextlib.suppress(Exception):  # a client that went away must not fail the start
                await ctx.report_progress(steps, None, message)
    return report


def _context(debugger: Debugger, ctx: Any) -> CallToolResult:
    return r.ok(ctx, files_from=debugger.files_from(ctx.sessionId))  # a Context is a ContextResult but for `success`, which ok() adds


def split_module(path: str | None, module: str | None,
                 args: list[str] | None) -> tuple[str | None, str | None, list[str] | None]:
    """`path: "-m pytest tests/x.py -x"` as `python -m` reads it: module `pytest`, the rest before `args`.
    A module given with a path, or a module name with arguments in it, is refused: one would be dropped,
    or taken for a module name that cannot exist."""
    if path and module:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "give path or module, not both (module runs like `python -m`; "
                         "its arguments go in args)")
    if path and path.lstrip().startswith("-m"):
        try:
            words = shlex.split(path)
        except ValueError as exc:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot read path {path!r} as `-m module args`: {exc}") from None
        if len(words) < 2 or words[0] != "-m":
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"path {path!r} names no module: give module "
                             "(e.g. 'pytest') and its arguments in args")
        return None, words[1], [*words[2:], *(args or [])]
    if module and (module.split() != [module] or module.startswith("-")):
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"module {module!r} is not a module name: give the name alone "
                         "(e.g. 'pytest') and its arguments in args")
    return path, module, args


def parse_address(address: str) -> tuple[str, int]:
    """'host:port' or '[v6]:port' to a (host, port) pair."""
    host, sep, port = address.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"address must be host:port, got {address!r}")
    return host, int(port)
