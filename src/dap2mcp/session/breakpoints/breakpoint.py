"""Breakpoints as the user asked for them: checked against what the adapter can do, before
anything is sent, so no condition is ever dropped in silence."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from ...adapters import AdapterProfile
from ...errors import DebugError, ErrorCode
from ..models import BreakpointView
from ..source_lines import line_text, read_lines
from .specs import BreakpointOptions, Kind

HIT_CONDITION = re.compile(r"^\s*(==|>=|<=|>|<|%)?\s*(\d+)\s*$")
_EXPRESSION = re.compile(r"\{([^{}]*)\}")

NO_OPTIONS = BreakpointOptions().over()
"""The options of a breakpoint given none: enabled, it stops at every hit."""


@dataclass
class Breakpoint:
    id: int
    kind: Kind = "line"
    file: str | None = None
    line: int | None = None
    function: str | None = None
    exception: str | None = None
    """An exception filter id of the adapter (`raised`, `uncaught`, …)."""
    exception_types: tuple[str, ...] = ()
    watch: str | None = None
    """A data breakpoint's expression, as the agent gave it."""
    access: str = "write"
    data_id: str | None = None
    """The adapter's id of the data the watch is on (`dataBreakpointInfo`), found anew in each run; None while
    the expression has not been resolved in a paused frame."""
    frame: tuple[str, int] | None = None
    """A watch on a local: the function of the frame it names a variable of, and that frame's place from the
    bottom of the stack; when no such frame is there any more, the watch goes away."""
    watched_as: str | None = None
    """While the program is recorded: the watched place by its address (`*(int *)0x7ffe…`), which names it in every
    frame the recording goes back through, where the agent's expression names a local of one frame only."""
    value: str | None = None
    """A watch's value at the last stop, to show the old value beside the new one."""
    options: BreakpointOptions = NO_OPTIONS
    """As the agent gave them, and changed them since (`BreakpointOptions.over`)."""
    temporary: bool = False
    verified: bool = False
    message: str | None = None
    adapter_id: int | None = None
    actual_line: int | None = None
    hit_count: int = 0
    notifications_sent: int = 0
    source: tuple[str, ...] | None = field(default=None, repr=False, compare=False)
    """The file's lines when the breakpoint was set (or last carried): a restart after an edit maps `line`
    through the change (edits.py)."""
    edited: str | None = None
    """What the edit of the file did to the breakpoint, for this run."""
    lost: bool = False
    """An edit of its file removed its line, or moved its code onto another breakpoint's: not sent in this run."""
    held: bool = False
    """A tracepoint spent while the program ran, left in the adapter until the program has stopped
    (`BreakpointRules.changed_while_running`)."""

    @property
    def exhausted(self) -> bool:
        limit = self.options.maxNotifications
        return limit is not None and self.notifications_sent >= limit

    @property
    def active(self) -> bool:
        """Sent to the adapter: enabled, and a tracepoint that has not used up its notifications."""
        return bool(self.options.enabled) and not self.exhausted and not self.lost

    @property
    def state(self) -> str:
        if not self.options.enabled:
            return "disabled"
        if self.exhausted:
            return "exhausted"
        return "verified" if self.verified else "pending"

    def describe(self) -> str:
        if self.kind == "watch":
            return f"watch {self.watch}"
        if self.kind == "function":
            return f"function {self.function}"
        return f"{os.path.basename(self.file or '')}:{self.line}"

    @property
    def note(self) -> str | None:
        """What an agent would not guess from the breakpoint's fields: that it moved, or why it is not bound."""
        if self.edited and (self.lost or self.verified or not self.message):
            return self.edited
        if self.message:
            return self.message
        if self.kind == "line" and self.verified and self.actual_line and self.line and self.actual_line != self.line:
            return f"moved from line {self.line} to line {self.actual_line}: the adapter found no code on line {self.line}"
        if self.kind == "watch" and self.data_id is None and self.options.enabled:
            return (f"not resolved: {self.watch!r} is looked up again at each stop, and watched once it names "
                    "something in the paused frame")
        if self.state == "pending":
            where = "at this line" if self.kind == "line" else "for this function" if self.kind == "function" else ""
            return (f"not bound: the adapter found no code {where} in what the program has loaded so far; "
                    "it binds if such code loads later").replace("  ", " ")
        return None

    def view(self) -> BreakpointView:
        tracepoint = bool(self.options.logMessage)
        return BreakpointView(
            id=self.id, type="tracepoint" if tracepoint else self.kind, verified=self.verified,
            watch=self.watch, access=self.access if self.watch else None, value=self.value,
            state=self.state, file=self.file, line=self.actual_line or self.line,
            text=line_text(self.file, self.actual_line or self.line) if self.kind == "line" else None,
            function=self.function, exception=self.exception, **self.options.model_dump(), hitCount=self.hit_count,
            notificationsSent=self.notifications_sent if tracepoint else None, message=self.note,
        )


def check_options(kind: Kind, options: BreakpointOptions, capabilities: dict[str, Any], profile: AdapterProfile) -> None:
    """Refuse, naming the missing capability, what the adapter would ignore or get wrong."""
    adapter = profile.name

    def need(capability: str, what: str, instead: str) -> None:
        if not capabilities.get(capability):
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"{adapter} does not support {what} (no {capability}): {instead}")

    if kind == "exception":
        if options.logMessage or options.hitCondition:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "exception breakpoints take no logMessage or hitCondition")
        if options.condition:
            need("supportsExceptionFilterOptions", "conditions on exception breakpoints",
                 "use exceptionTypes, or `evaluate` the condition at each stop and `continue`")
        if options.exceptionTypes:
            need("supportsExceptionOptions", "exception types on exception breakpoints",
                 "use the adapter's filter alone and `continue` past the other types")
    elif options.exceptionTypes:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "exceptionTypes go with exception, not with a line or function")
    if kind == "watch" and options.logMessage:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "a watch takes no logMessage: DAP has no tracepoints on data")
    if kind == "watch" and (options.condition or options.hitCondition) and not profile.watches.watch_conditions:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{adapter} would drop a watch's condition and hit condition and stop "
                         "at every write: watch without them and `continue` past the writes that are right, or use "
                         "adapter lldb")
    if kind == "function" and (options.condition or options.hitCondition) and not profile.breakpoints.function_conditions:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{adapter} would drop the condition and hit condition of a function "
                         "breakpoint and stop at every call: put the breakpoint on a line of the function instead")
    if options.condition and kind != "exception":
        need("supportsConditionalBreakpoints", "conditional breakpoints",
             "set it without the condition, `evaluate` the condition at each stop and `continue` where it is false")
        _check_expression(options.condition, "condition", profile)
    if options.hitCondition:
        need("supportsHitConditionalBreakpoints", "hit conditions",
             "set it without one and `continue` past the hits to skip, or use a `condition` on a count the program keeps")
        hit = HIT_CONDITION.match(options.hitCondition)
        if not hit or int(hit.group(2)) == 0:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"hitCondition {options.hitCondition!r} is not one of "
                             "'N', '== N', '>= N', '> N', '<= N', '< N', '% N' with N a positive number")
        hit_condition_sent(options.hitCondition, profile)
    if options.logMessage:
        if kind == "function":
            raise DebugError(ErrorCode.NOT_SUPPORTED, "DAP has no tracepoints on functions; use file and line")
        need("supportsLogPoints", "tracepoints (logMessage)",
             "set a breakpoint there, `evaluate` what to log at each stop and `continue`")
        _check_log_message(options.logMessage, profile)
    if options.maxNotifications is not None and not options.logMessage:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "maxNotifications goes with logMessage (a tracepoint)")


def hit_condition_sent(text: str, profile: AdapterProfile) -> str:
    """A checked hit condition as the adapter reads it (see `AdapterProfile.breakpoints.hit_counts`)."""
    if profile.breakpoints.hit_counts is None:
        return text
    hit = HIT_CONDITION.match(text)
    assert hit is not None, "checked by check_options"
    given, count = hit.group(1) or "", int(hit.group(2))
    for form, sent, added in profile.breakpoints.hit_counts:
        if form == given:
            return f"{sent}{count + added}"
    forms = ", ".join(f"'{form} N'" if form else "'N'" for form, _, _ in profile.breakpoints.hit_counts)
    raise DebugError(ErrorCode.NOT_SUPPORTED, f"{profile.name} counts hits only as a number of hits to pass over, so "
                     f"its hit conditions are {forms} ('N' is '== N'); not {text.strip()!r}: count in a condition "
                     "instead, or stop at every hit")


def _check_expression(text: str, what: str, profile: AdapterProfile) -> None:
    """Where dap2mcp knows the language, a syntax error is refused here: adapters often just never stop."""
    if profile.language != "python":
        return
    try:
        compile(text, f"<{what}>", "eval")
    except (SyntaxError, ValueError) as exc:
        reason = exc.msg if isinstance(exc, SyntaxError) else str(exc)
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{what} {text!r} is not a valid expression: {reason}") from None


def _check_log_message(message: str, profile: AdapterProfile) -> None:
    """`{expression}` parts must each be whole; the adapter would print an error instead of the message."""
    if "{{" in message or "}}" in message:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "logMessage: '{{' and '}}' are not escapes here; every '{...}' "
                         "is evaluated")
    if _EXPRESSION.sub("", message).count("{") or _EXPRESSION.sub("", message).count("}"):
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"logMessage {message!r} has unbalanced braces")
    if profile.breakpoints.log_as_written and _EXPRESSION.search(message):
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{profile.name} writes a tracepoint's message as it is, without "
                         "the values of '{...}' parts: log plain text, or stop with a breakpoint and `evaluate`")
    for expression in _EXPRESSION.findall(message):
        if not expression.strip():
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "logMessage has an empty '{}'")
        _check_expression(expression, "logMessage part", profile)


def check_exception_filter(name: str, capabilities: dict[str, Any], adapter: str) -> None:
    filters = [f["filter"] for f in capabilities.get("exceptionBreakpointFilters") or []]
    if not filters:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{adapter} has no exception breakpoints")
    if name not in filters:
        raise DebugError(ErrorCode.INVALID_ARGUMENT,
                         f"unknown exception filter {name!r}; {adapter} has: {', '.join(filters)}")


CANDIDATES_SHOWN = 5
"""Lines named where a breakpoint's `text` is on several and no `line` says which."""


def resolve_place(file: str, line: int | None, text: str | None, cwd: str | None) -> tuple[str, int]:
    """The absolute file and the line a `{file, line}` or `{file, text[, line]}` names: with `text`, the line
    whose code (without its indent) contains it, the nearest to `line` where several do; else a clear error
    naming the candidates. An agent quotes the code it means, which stays true when lines move."""
    if text is None:
        return resolve_source_line(file, line or 0, cwd), line or 0
    path, wanted = _absolute(file, cwd), text.strip()
    lines = read_lines(path) or ()
    found = [number for number, code in enumerate(lines, start=1) if wanted in code]
    if not found:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"no line of {file} holds {wanted!r}")
    if len(found) > 1 and line is not None:
        nearest = min(abs(number - line) for number in found)
        found = [number for number in found if abs(number - line) == nearest]
    if len(found) > 1:
        shown = "; ".join(f"{n}: {lines[n - 1][:60]}" for n in found[:CANDIDATES_SHOWN])
        more = f" (and {len(found) - CANDIDATES_SHOWN} more)" if len(found) > CANDIDATES_SHOWN else ""
        near = " as near to line" if line is not None else ""
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{len(found)} lines{near} of {file} hold {wanted!r}: {shown}{more};"
                         " give `line` near the one meant, or more of its text")
    return path, found[0]


def _absolute(file: str, cwd: str | None) -> str:
    path = os.path.realpath(os.path.join(cwd or os.getcwd(), os.path.expanduser(file)))
    if not os.path.isfile(path):
        raise DebugError(ErrorCode.FILE_NOT_FOUND, f"source file not found: {file}")
    return path


def resolve_source_line(file: str, line: int, cwd: str | None) -> str:
    """An absolute, existing file in which `line` exists; else a clear error."""
    path = _absolute(file, cwd)
    if line < 1:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"line must be 1 or more, got {line}")
    with open(path, "rb") as handle:
        count = sum(1 for _ in handle)
    if line > count:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"line {line} is past the end of {file} ({count} lines)")
    return path
