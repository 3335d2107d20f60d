"""The 13 tools of seed 003, plus `wait`, `output`, `memory` and `save-core`. Each parses its input, calls the debugger or the session the
call names (see binding.py), and shapes the result."""

from __future__ import annotations

import contextlib
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult
from pydantic import Field

from ..errors import DebugError, ErrorCode
from ..session.breakpoints.specs import (
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
from ..session.debugger import Debugger
from ..session.handle import (
    DEFAULT_WAIT,
    EVALUATE_TIMEOUT,
    MAX_EVALUATE_DEPTH,
    MEMORY_BYTES,
    THREAD_FRAMES,
    SessionHandle,
)
from ..session.program.launch_request import LaunchRequest
from . import results as r
from .binding import SessionId, Spread, tool

Timeout = Annotated[float, Field(gt=0, le=3600, description="Seconds to wait (then 'running').")]
ThreadId = Annotated[int | None, Field(description="Default: the thread that stopped.")]
FrameId = Annotated[int | None, Field(description="A frame's id (default: the top one).")]
CONTEXT_FRAMES = 200
"""The most frames one `context` lists (`framesOffset` pages on); fewer where they pass `ANSWER_BYTES` of text."""
OUTPUT_PAGE = 30_000
"""The most characters one `output` page holds; fewer where their text passes `ANSWER_BYTES` (escapes, non-ASCII)."""
INFO_ITEMS = 200
"""The most items one `info` page lists; fewer where they pass `ANSWER_BYTES` of text (`nextOffset` goes on)."""


@tool("debug", destructive=True)
async def debug(
    debugger: Debugger,
    request: Spread[LaunchRequest],
    timeout: Timeout = DEFAULT_WAIT,
    ctx: Context | None = None,
) -> Annotated[CallToolResult, r.ContextResult]:
    """Start debugging (Python, C, C++, Rust, Go, JavaScript, TypeScript, Ruby, Java, any DAP adapter). Mode
    `source`: a script or source file (built where needed); `binary`: an executable; `test`: a project's tests, to the
    first failure; `attach`: a running process; `connect`: an adapter at `address`; `core`: a core file. Each call
    starts a session (up to 8). Returns the context at the first stop, `state: running` after
    `timeout`, or the exit code and output."""
    return _context(debugger, await debugger.debug(request.target(), adapter=request.adapter,
                                                   breakpoints=request.breakpoints or [], timeout=timeout,
                                                   progress=_progress(ctx)))


@tool("stop", destructive=True, idempotent=True)
async def stop(
    debugger: Debugger,
    signal: Annotated[Literal["SIGTERM", "SIGINT"] | None, Field(description=(
        "Sent first: the program's handlers run for up to `timeout` seconds."))] = None,
    timeout: Annotated[float, Field(gt=0, le=60, description="Seconds to wait for the program to end after `signal`.")] = 5.0,
    sessionId: SessionId = None,
    all: Annotated[bool, Field(description="End every session (each listed in `stopped`).")] = False,
) -> Annotated[CallToolResult, r.StopResult]:
    """End a session (or `all`), ending the program (or detaching). Returns its exit code if it ended
    by itself, and output not yet shown."""
    if all:
        if sessionId is not None:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "give sessionId or all, not both")
        stopped = [r.StoppedSession(**ended) for ended in await debugger.stop_all(signal, timeout)]
        return r.ok(r.StopResult(state="terminated", stopped=stopped))
    return r.ok(r.StopResult(**await debugger.stop(signal, timeout, sessionId)))


@tool("restart", destructive=True)
async def restart(
    debugger: Debugger,
    args: Annotated[list[str] | None, Field(description="New arguments; omit to reuse the previous ones.")] = None,
    pathMappings: Annotated[list[PathMapping] | None, Field(max_length=MAX_PATH_MAPPINGS, description=(
        "As `debug`'s."))] = None,
    timeout: Timeout = DEFAULT_WAIT,
    sessionId: SessionId = None,
    ctx: Context | None = None,
) -> Annotated[CallToolResult, r.ContextResult]:
    """Run the program again with its breakpoints and snapshots, and new `args` or the same. Returns
    what `debug` does."""
    mappings = [(m.local, m.remote) for m in pathMappings] if pathMappings is not None else None
    return _context(debugger, await debugger.restart(args, timeout, progress=_progress(ctx), session_id=sessionId,
                                                     path_mappings=mappings))


@tool("breakpoint")
async def breakpoint(
    calls: SessionHandle,
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
        "Change this breakpoint instead (its options only).")
    )] = None,
) -> Annotated[CallToolResult, r.BreakpointResult]:
    """Set a breakpoint at file+line (or file+text), on a function or exceptions, with a condition, hit
    condition or log message (a tracepoint); or a watch (while paused); or change one by `id`. Returns id, verified,
    hit count."""
    options = {"exceptionTypes": exceptionTypes, "condition": condition, "hitCondition": hitCondition,
               "logMessage": logMessage, "maxNotifications": maxNotifications, "enabled": enabled}
    if id is not None:
        if file or line or text or function or exception or watch or access:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "with id, give only what changes, not a new place")
        view = await calls.update_breakpoint(id, BreakpointChange(**options))
    else:
        view = await calls.add_breakpoint(BreakpointSpec(file=file, line=line, text=text, function=function,
                                                            exception=exception, watch=watch, access=access,
                                                            **options))
    return r.ok(view, files_from=calls.files_from, session_id=calls.id)  # a BreakpointView is a BreakpointResult but for `success`


@tool("clear-breakpoints", destructive=True, idempotent=True)
async def clear_breakpoints(
    debugger: Debugger,
    file: Annotated[str | None, Field(max_length=PATH_CHARS, description="Remove every breakpoint in this file.")] = None,
    ids: Annotated[list[int] | None, Field(description="Remove these breakpoint ids.")] = None,
    all: Annotated[bool, Field(description="Remove every breakpoint.")] = False,
    sessionId: SessionId = None,
) -> Annotated[CallToolResult, r.ClearResult]:
    """Remove breakpoints: in `file`, by `ids`, or `all` (one of them). Returns the ids removed and the
    count left."""
    if not (file or ids or all):  # said before whether there is a session to clear them in
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "give file, ids or all=true")
    calls = debugger.handle(sessionId)
    removed = await calls.clear_breakpoints(file, ids, all)
    return r.ok(r.ClearResult(removed=removed, remaining=calls.breakpoints_kept()), session_id=calls.id)


@tool("continue")
async def continue_(
    calls: SessionHandle,
    threadId: Annotated[int | None, Field(description="Resume only this thread (default: all).")] = None,
    to: Annotated[Location | None, Field(description="Run to {file, line} or {function} (a temporary breakpoint).")] = None,
    reverse: Annotated[bool, Field(description="Back to the previous stop in the recording (a watch: its last write).")] = False,
    timeout: Timeout = DEFAULT_WAIT,
) -> Annotated[CallToolResult, r.ContextResult]:
    """Resume until a stop (a breakpoint, an exception, `to`), the end, or `timeout`. Returns the
    context at the stop, the exit code and output, or `state: running`."""
    if reverse:
        if to is not None:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "`to` goes forward: with reverse, set a breakpoint there")
        return _context(calls, await calls.back("continue", threadId, timeout))
    return _context(calls, await calls.continue_(threadId, to, timeout))


@tool("step")
async def step(
    calls: SessionHandle,
    mode: Annotated[Literal["over", "in", "out", "back", "backOut"], Field(description=(
        "'over' the line, 'in' to a call, 'out' of the function; recorded: 'back' a line, 'backOut' to the caller."))],
    threadId: ThreadId = None,
    timeout: Timeout = DEFAULT_WAIT,
) -> Annotated[CallToolResult, r.ContextResult]:
    """Step the paused program. Returns the context at the new line, with `changes` since the
    previous stop."""
    if mode in ("back", "backOut"):
        return _context(calls, await calls.back(mode, threadId, timeout))
    return _context(calls, await calls.step(mode, threadId, timeout))


@tool("wait", read_only=True)
async def wait(calls: SessionHandle, timeout: Timeout = DEFAULT_WAIT) -> Annotated[CallToolResult, r.ContextResult]:
    """Wait for the running program's next stop without resuming it: its context, the exit, or
    `running` after `timeout`."""
    return _context(calls, await calls.wait(timeout))


@tool("output", read_only=True, idempotent=True)
async def output(
    calls: SessionHandle,
    offset: Annotated[int, Field(ge=0, description="Where to start, in characters from the beginning.")] = 0,
    limit: Annotated[int, Field(ge=1, le=OUTPUT_PAGE, description="Most characters to return.")] = 8000,
) -> Annotated[CallToolResult, r.OutputResult]:
    """Read the program's output (stdout, stderr, tracepoints) in pages: `nextOffset` starts the
    next; `end`: its length."""
    page: dict[str, Any] = {**calls.output(offset, limit), "sessionId": calls.id}
    text, begin = page["text"], page["offset"]
    kept = r.most_that_fit(lambda n: r.text_bytes({**page, "text": text[:n], "nextOffset": begin + n}), len(text))
    if kept < len(text):  # quotes, escapes and non-ASCII characters take more than a byte of text each
        page.update(text=text[:kept], nextOffset=begin + kept)
    return r.ok(r.OutputResult(**page), session_id=calls.id)


@tool("pause", idempotent=True)
async def pause(
    calls: SessionHandle,
    threadId: Annotated[int | None, Field(description="Thread to pause (default: all).")] = None,
    timeout: Timeout = 10.0,
) -> Annotated[CallToolResult, r.ContextResult]:
    """Interrupt the running program (a hang, a long loop). Returns the context where it stopped."""
    return _context(calls, await calls.pause(threadId, timeout))


@tool("context", read_only=True, idempotent=True)
async def context(
    calls: SessionHandle,
    threadId: ThreadId = None,
    frameId: FrameId = None,
    maxFrames: Annotated[int, Field(ge=1, le=CONTEXT_FRAMES, description="Most stack frames to list.")] = 20,
    framesOffset: Annotated[int, Field(ge=0, le=1_000_000, description=(
        "First frame listed (`framesNext` of an earlier answer).")) ] = 0,
    scopes: Annotated[list[Annotated[str, Field(max_length=100)]] | None, Field(max_length=10, description=(
        "Also list these scopes a stop only names, e.g. ['Globals']."))] = None,
    threadsOffset: Annotated[int, Field(ge=0, le=1_000_000, description=(
        "List threads from this one on (`threadsNext`)."))] = 0,
    libraryFrames: Annotated[bool, Field(description=(
        "List the frames `framesFolded` counts too."))] = False,
) -> Annotated[CallToolResult, r.ContextResult]:
    """Read where the paused program is: location, frames, variables, exception, threads; another
    frame or thread, more `scopes`."""
    return _context(calls, await calls.context(threadId, frameId, framesOffset + maxFrames, scopes,
                                                        threadsOffset, libraryFrames),
                    frames_from=framesOffset)


@tool("evaluate", destructive=True)
async def evaluate(
    calls: SessionHandle,
    expression: Annotated[str, Field(min_length=1, description="Expression (or statement) to evaluate.")],
    frameId: FrameId = None,
    timeout: Annotated[float, Field(gt=0, le=3600, description=(
        "Seconds the evaluation may run, then TIMEOUT."))] = EVALUATE_TIMEOUT,
    depth: Annotated[int, Field(ge=0, le=MAX_EVALUATE_DEPTH, description=(
        "Levels of members to list in `children` (0: none)."))] = 0,
) -> Annotated[CallToolResult, r.ValueResult]:
    """Evaluate an expression in the paused program (it may change state). Returns value (`truncated`
    if cut), type, printed output; `leftOut`/`expand`: nested parts left out and how to see them."""
    return r.ok(r.ValueResult(**await calls.evaluate(expression, frameId, timeout, depth)), session_id=calls.id)


@tool("set-variable", destructive=True, idempotent=True)
async def set_variable(
    calls: SessionHandle,
    name: Annotated[str, Field(min_length=1, max_length=TEXT_CHARS, description=(
        "A variable, or a path: obj.field, items[2], ptr->field.")
    )],
    value: Annotated[str, Field(description="New value, as an expression in the program's language.")],
    frameId: FrameId = None,
) -> Annotated[CallToolResult, r.SetVariableResult]:
    """Change a variable of the paused program (to test a fix). Returns its new value and type."""
    return r.ok(r.SetVariableResult(**await calls.set_variable(name, value, frameId)), session_id=calls.id)


@tool("info", read_only=True, idempotent=True)
async def info(
    debugger: Debugger,
    type: Annotated[Literal["sources", "modules", "sessions", "threads"], Field(description=(
        "What to list."))],
    maxFrames: Annotated[int, Field(ge=1, le=100, description="Type 'threads': most frames shown per thread.")] = THREAD_FRAMES,
    offset: Annotated[int, Field(ge=0, description="The first item listed (`nextOffset` of an earlier answer).")] = 0,
    limit: Annotated[int, Field(ge=1, le=INFO_ITEMS, description="Most items listed.")] = 200,
    sessionId: SessionId = None,
) -> Annotated[CallToolResult, r.InfoResult]:
    """List the program's `sources` or `modules` (its own first), the `sessions`, or `threads` (top
    frames, state). Pages: `nextOffset`."""
    if type == "sessions":
        return r.ok(r.InfoResult(**debugger.list_sessions()))
    calls = debugger.handle(sessionId)
    listed: dict[str, Any] = {**await calls.info(type, maxFrames, offset, limit), "sessionId": calls.id}
    items = listed["items"]
    kept = r.most_that_fit(lambda n: r.text_bytes({**listed, "items": items[:n], "truncated": True,
                                                   "nextOffset": offset + n}), len(items))
    if kept < len(items):  # long paths, or threads with deep frames: the rest on the next page
        listed.update(items=items[:kept], truncated=True, nextOffset=offset + kept)
    return r.ok(r.InfoResult(**listed), session_id=calls.id)


@tool("disassemble", read_only=True, idempotent=True)
async def disassemble(
    calls: SessionHandle,
    memoryReference: Annotated[str | None, Field(min_length=1, description=(
        "Address to start at (default: the current instruction)."))] = None,
    instructionOffset: Annotated[int, Field(ge=-100_000, le=100_000, description=(
        "Instructions to skip from the address (negative: before it)."))] = 0,
    instructionCount: Annotated[int, Field(ge=1, le=2000)] = 20,
) -> Annotated[CallToolResult, r.DisassembleResult]:
    """Disassemble machine code, by default where the program is paused (C, C++, Rust, Go)."""
    return r.ok(r.DisassembleResult(**await calls.disassemble(memoryReference, instructionOffset, instructionCount)),
                session_id=calls.id)


@tool("save-core")
async def save_core(
    calls: SessionHandle,
    path: Annotated[str | None, Field(max_length=PATH_CHARS, description="Where (default: dap2mcp's cache).")] = None,
) -> Annotated[CallToolResult, r.SavedCore]:
    """Save a core file of the paused program (gdb's gcore), for `debug` mode `core`."""
    return r.ok(r.SavedCore(**await calls.save_core(path)), session_id=calls.id)


@tool("record")
async def record(
    calls: SessionHandle,
    on: Annotated[bool, Field(description="Start (false: stop and drop) recording.")] = True,
    maxInstructions: Annotated[int | None, Field(ge=1000, le=10_000_000, description="gdb: most instructions kept.")] = None,
) -> Annotated[CallToolResult, r.Recording]:
    """Record the paused program from here (gdb, ruby) for `step {mode: "back"}` and `continue
    {reverse: true}`. Slow: record short spans."""
    return r.ok(r.Recording(**await calls.record(on, maxInstructions)), session_id=calls.id)


@tool("memory", read_only=True, idempotent=True)
async def memory(
    debugger: Debugger,
    memoryReference: Annotated[str | None, Field(min_length=1, max_length=200, description=(
        "An address (0x…) to read at.")
    )] = None,
    expression: Annotated[str | None, Field(min_length=1, max_length=TEXT_CHARS, description=(
        "Instead: read where what this names lies (`*p`: what p points at)."))] = None,
    offset: Annotated[int, Field(ge=-1_000_000, le=1_000_000, description="Bytes to skip from there (negative: before it).")] = 0,
    count: Annotated[int, Field(ge=1, le=MEMORY_BYTES, description=f"Bytes to read (at most {MEMORY_BYTES}).")] = 256,
    frameId: FrameId = None,
    sessionId: SessionId = None,
) -> Annotated[CallToolResult, r.MemoryResult]:
    """Read the paused program's raw memory (C, C++, Rust, Go): rows of 16 bytes, address, hex, text."""
    if (memoryReference is None) == (expression is None):  # said before whether there is a session to read
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "give memoryReference or expression (one of them)")
    calls = debugger.handle(sessionId)
    return r.ok(r.MemoryResult(**await calls.memory(memoryReference, expression, offset, count, frameId)),
                session_id=calls.id)


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


def _context(on: Debugger | SessionHandle, ctx: Any, frames_from: int = 0) -> CallToolResult:
    """`frames_from`: the frames above it were read to reach the page asked for (`context {framesOffset}`), and
    are left out. Frames that would take the answer's text past `ANSWER_BYTES` (long names, deep stacks) are
    cut, and `framesNext` says where the next page starts."""
    files_from = on.sessions.files_from(ctx.sessionId)  # the session whose stop it is
    if ctx.frames is not None:
        if frames_from:
            ctx.frames = ctx.frames[frames_from:]
        data = ctx.model_dump(mode="json", exclude_none=True, context={"base": files_from})
        frames = data["frames"]
        kept = r.most_that_fit(lambda n: r.text_bytes({**data, "frames": frames[:n], "framesTruncated": True,
                                                       "framesNext": frames_from + n, "hint": FRAMES_CUT}),
                               len(frames))
        kept = max(kept, 1)  # an answer too long even without its frames (long values) keeps the top one
        if kept < len(frames):
            ctx.frames, ctx.framesTruncated = ctx.frames[:kept], True
            ctx.hint = f"{ctx.hint} {FRAMES_CUT}" if ctx.hint else FRAMES_CUT
        if ctx.framesTruncated and not ctx.framesFolded and ctx.frames:
            ctx.framesNext = frames_from + len(ctx.frames)
    return r.ok(ctx, files_from=files_from)  # a Context is a ContextResult but for `success`, which ok() adds


FRAMES_CUT = (f"The frames were cut to keep this answer within {r.ANSWER_BYTES // 1024} KB of text: "
              "`context {framesOffset: framesNext}` lists the next ones.")


TOOLS = (debug, stop, restart, breakpoint, clear_breakpoints, continue_, step, wait, output, pause, context, evaluate,
         set_variable, info, disassemble, memory, save_core, record)
"""The tools in the order tools/list gives them."""
