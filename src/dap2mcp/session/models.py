"""What the session hands upward: bounded, typed views of the debuggee's state."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, SerializationInfo, SerializerFunctionWrapHandler, model_serializer
from pydantic.json_schema import SkipJsonSchema

from .stop.short_names import NAME_CHARS, short_name

T = TypeVar("T")
Opt = Union[T, SkipJsonSchema[None]]  # noqa: UP007 - absent, never null: results leave None fields out

State = Literal["starting", "running", "paused", "terminated"]


def lean_schema(schema: dict[str, Any]) -> None:
    """Drop per-field titles and null defaults: clients validate every result against this schema."""
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
        if prop.get("default", 0) is None:
            prop.pop("default")


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with every `#/$defs/...` reference replaced by its definition: a client validates each
    result against it, and following references is the slowest part of that (jsonschema's `referencing`).
    A schema whose definitions refer to themselves is returned as it is."""
    defs = schema.get("$defs") or {}

    def expand(node: Any, trail: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [expand(item, trail) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref.removeprefix("#/$defs/")
            if name in trail or name not in defs:
                raise RecursionError(name)
            return expand({**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}, (*trail, name))
        return {key: expand(value, trail) for key, value in node.items() if key != "$defs"}

    try:
        return expand(schema, ())
    except RecursionError:
        return schema


class _Model(BaseModel):
    model_config = ConfigDict(populate_by_name=True, json_schema_extra=lean_schema)


def relative(path: str, base: str | None) -> str:
    """`path` from `base` when it lies below it, as an agent names the files of its project (and as
    file arguments are read: from the same directory); any other path as it is."""
    if not base or base == os.sep or not os.path.isabs(path):
        return path
    prefix = base.rstrip(os.sep) + os.sep
    return path[len(prefix):] if path.startswith(prefix) else path


FUNCTION_CHARS = 300
"""A function's name as shown: gdb spells out a C++ template's in full (9,830 characters for a
`push_back` of a vector of maps), and a stack holds many."""


class _Placed(_Model):
    """A place in a file. What is sent leaves out column 1 (it says no more than its absence), cuts a
    long function name, and, when dumped with `context={"base": directory}`, names a file below that
    directory relative to it; the model keeps all as they are, for the session and the resources."""

    @model_serializer(mode="wrap")
    def _as_shown(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        data = handler(self)
        if data.get("column") == 1:
            del data["column"]
        if isinstance(function := data.get("function"), str) and len(function) > NAME_CHARS:
            function = short_name(function)
            data["function"] = function if len(function) <= FUNCTION_CHARS else function[: FUNCTION_CHARS - 1] + "…"
        if isinstance(file := data.get("file"), str) and isinstance(info.context, dict):
            data["file"] = relative(file, info.context.get("base"))
        return data


class Location(_Placed):
    file: Opt[str] = None
    line: Opt[int] = None
    column: Opt[int] = None
    function: Opt[str] = None
    text: Opt[str] = None
    """The line's code, without its indent, cut at 120 characters (where the file is here to read)."""


class Frame(_Placed):
    id: int
    function: str
    file: Opt[str] = None
    line: Opt[int] = None
    column: Opt[int] = None
    instructionPointer: Opt[str] = None
    """Where `disassemble` starts for this frame (native and Go adapters)."""


class StackLine(_Placed):
    """A frame of `info {type: "threads"}` or of a thread the debugger could not stop."""

    id: Opt[int] = None
    """The frame's id at this stop (a thread the debugger holds); none for a frame read from the process."""
    function: str
    file: Opt[str] = None
    line: Opt[int] = None
    code: Opt[str] = None
    """The line's source text (frames read from the process)."""


class ThreadStack(_Model):
    """A thread and its innermost frames."""

    id: Opt[int] = None
    """The id `context {threadId}` takes (none: a thread the adapter does not list)."""
    name: str
    state: Opt[Literal["stopped", "blocked", "running"]] = None
    """`stopped`: the debugger holds it, its variables readable; `blocked`: asleep inside a call into native code
    (a lock's acquire, a sleep, a read), which the debugger cannot interrupt; `running`: neither."""
    waitingIn: Opt[str] = None
    """For a blocked thread: what the call waits for (the system call, in words)."""
    frames: list[StackLine]
    totalFrames: Opt[int] = None
    readFromProcess: Opt[bool] = None
    """True: the frames were read by the process itself, not through the debugger: no ids, no variables."""


class Variable(_Model):
    name: str
    value: str
    type: Opt[str] = None
    variablesReference: Opt[int] = None
    """Non-zero when the value has children. Where the adapter's text hides them (lldb's `account @ 0x…`, gdb's
    `{...}`), `value` shows the first level instead (`session.stop.preview`); for more, `evaluate` a member
    (`item['name']`, `obj.field`) or take a snapshot with `depth`."""
    valueTruncated: Opt[bool] = None


class InterpreterView(_Model):
    path: str
    """The interpreter the program runs on, as it was started (a virtualenv's `bin/python`, not what it links to)."""
    chosen: str
    """How: given (`python`), the project's virtualenv, the server's VIRTUAL_ENV, or python3 on PATH."""


class Returned(_Model):
    function: str
    value: str
    type: Opt[str] = None


class Scope(_Model):
    name: str
    variables: list[Variable]
    total: Opt[int] = None
    """How many variables the scope holds, given only when not all are shown."""
    truncated: Opt[bool] = None
    expensive: Opt[bool] = None
    """Named but not listed (registers, a Python module's globals): `context` with `scopes: [name]` lists
    them, `evaluate` reads one by name."""
    unreadable: Opt[str] = None
    """Why the adapter would not list this scope's variables; `evaluate` may still read them by name."""


class ExceptionDetails(_Model):
    exceptionId: Opt[str] = None
    description: Opt[str] = None
    breakMode: Opt[str] = None
    typeName: Opt[str] = None
    message: Opt[str] = None
    stackTrace: Opt[str] = None
    unreadable: Opt[str] = None
    """Why the adapter gave no details; the stop's `description` still says what happened."""


class Thread(_Model):
    id: int
    name: str
    at: Opt[Location] = None
    """Where the thread is in the program's own code, where its name gives only the runtime's function it
    waits in (a goroutine parked in `runtime.gopark`): the first frame of the program's own on its stack."""


class Output(_Model):
    text: str
    truncated: bool = False
    """True when older text was dropped to stay within the bound."""
    incomplete: Opt[bool] = None
    """True when output from before the stop was still arriving when the answer was given (see `output`)."""


class VariableChange(_Model):
    name: str
    path: Opt[str] = None
    """Where the variable sits under the frame (`order.customer.city`, `items[3]`), where that is not `name`."""
    type: str
    value: Opt[str] = None
    oldValue: Opt[str] = None
    newValue: Opt[str] = None
    oldType: Opt[str] = None


class Changes(_Model):
    """What changed in the frame's top-level variables since the previous stop."""

    since: int
    """The stop compared against (`@c<since>`)."""
    added: Opt[list[VariableChange]] = None
    removed: Opt[list[VariableChange]] = None
    modified: Opt[list[VariableChange]] = None
    truncated: Opt[bool] = None
    frameChanged: Opt[str] = None
    notCompared: Opt[str] = None
    """Why this stop was not compared with the last although both are in one call of the function."""


class WatchHit(_Model):
    id: int
    expression: str
    old: Opt[str] = None
    new: Opt[str] = None
    stoppedHere: Opt[bool] = None
    """false: the value changed since the previous stop, but this stop is not the watch's."""


class Context(_Model):
    """Where the program is and what it holds, or how it ended."""

    state: State
    sessionId: Opt[str] = None
    """The session this is about (`debug` starts each beside the others; see `info {type: "sessions"}`)."""
    parentId: Opt[str] = None
    """Where the stop is in a child process's session: the session of the program that started it."""
    cycle: Opt[int] = None
    """The stop's number: its snapshot is `@c<cycle>` (and `@t0` while it is the latest)."""
    reason: Opt[str] = None
    description: Opt[str] = None
    threadId: Opt[int] = None
    location: Opt[Location] = None
    frames: Opt[list[Frame]] = None
    totalFrames: Opt[int] = None
    framesTruncated: Opt[bool] = None
    framesNext: Opt[int] = None
    """Where more frames follow those listed: the `framesOffset` of `context` that lists the next ones."""
    framesFolded: Opt[int] = None
    """How many frames below the program's own were left out: a test harness's, the runtime's start
    (`context {libraryFrames: true}` lists them)."""
    scopes: Opt[list[Scope]] = None
    exception: Opt[ExceptionDetails] = None
    breakpointIds: Opt[list[int]] = None
    """Ids of the breakpoints that caused this stop."""
    returned: Opt[list[Returned]] = None
    """After a step out of a function, or over a line that called one, where the adapter tells it: what each
    function that returned gave back (debugpy: `showReturnValue`)."""
    watches: Opt[list[WatchHit]] = None
    """The watches (data breakpoints) whose value is not what it was at the previous stop, or that stopped
    the program (`reason: data breakpoint`), with the old and new value."""
    replay: Opt[bool] = None
    """The stop is in the recorded past (after going back), until a forward move passes the recording's end."""
    breakpointNotes: Opt[list[str]] = None
    """In the result of `debug` and `restart`: the breakpoints that moved to another line or did not bind; at
    any stop: a watch that went away (its local's frame returned) or was resolved anew (after `restart`)."""
    pathsRelativeTo: Opt[str] = None
    """In the result of `debug` and `restart`: the directory that files below it are named relative to,
    here and in every later result, and that a relative `file` argument is read from."""
    interpreter: Opt[InterpreterView] = None
    """In the result of `debug` and `restart` of a program launched where dap2mcp chooses what runs it (Python):
    the interpreter, and how it was chosen."""
    thread: Opt[ThreadStack] = None
    """`context {threadId}` of a thread the debugger could not stop (blocked inside a call into native code):
    its stack as the process read it, without variables."""
    threads: Opt[list[Thread]] = None
    threadsTotal: Opt[int] = None
    threadsNext: Opt[int] = None
    """Where more threads follow those listed: the `threadsOffset` of `context` that lists the next ones."""
    changes: Opt[Changes] = None
    output: Opt[Output] = None
    adapterOutput: Opt[Output] = None
    """What the debug adapter said about itself since the previous result (lldb's warnings, gdb's console,
    Delve's log): not the program's output."""
    exitCode: Opt[int] = None
    hint: Opt[str] = None


class BreakpointView(_Placed):
    id: int
    type: Literal["line", "function", "exception", "tracepoint", "watch"] = "line"
    verified: bool
    state: Opt[str] = None
    """`verified`, `pending` (not yet bound by the adapter), `disabled`, or `exhausted` (a tracepoint
    that sent its maxNotifications)."""
    enabled: Opt[bool] = None
    file: Opt[str] = None
    line: Opt[int] = None
    text: Opt[str] = None
    """A line breakpoint's line of code as the file has it now (without its indent, cut at 120 characters)."""
    function: Opt[str] = None
    exception: Opt[str] = None
    exceptionTypes: Opt[list[str]] = None
    watch: Opt[str] = None
    access: Opt[str] = None
    value: Opt[str] = None
    """A watch's value when last seen (set, or the last stop)."""
    condition: Opt[str] = None
    hitCondition: Opt[str] = None
    logMessage: Opt[str] = None
    maxNotifications: Opt[int] = None
    hitCount: Opt[int] = None
    notificationsSent: Opt[int] = None
    message: Opt[str] = None


@dataclass
class StopInfo:
    """What the adapter's `stopped` event said about the current stop."""

    reason: str
    thread_id: int | None
    description: str | None = None
    hit_breakpoint_ids: list[int] = field(default_factory=list)


@dataclass
class WatchReport:
    """What the watches say about one stop (`watches.after_stop`), worked out once and given to every context
    of it."""

    cycle: int
    hits: list[WatchHit] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    wrote_at: int | None = None
    """The line of the instruction that wrote: the program stops just after it, often on the next line."""
