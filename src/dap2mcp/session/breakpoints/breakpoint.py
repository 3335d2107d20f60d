"""Breakpoints as the user asked for them: checked against what the adapter can do, before
anything is sent, so no condition is ever dropped in silence."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, fields
from typing import Any

from ...adapters import AdapterProfile
from ...errors import DebugError, ErrorCode
from ..models import BreakpointView
from ..source_lines import line_text, read_lines
from .specs import BreakpointChange, Kind

_HIT_CONDITION = re.compile(r"^\s*(==|>=|<=|>|<|%)?\s*(\d+)\s*$")
_EXPRESSION = re.compile(r"\{([^{}]*)\}")


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
    value: str | None = None
    """A watch's value at the last stop, to show the old value beside the new one."""
    condition: str | None = None
    hit_condition: str | None = None
    log_message: str | None = None
    max_notifications: int | None = None
    enabled: bool = True
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

    @property
    def options(self) -> Options:
        return Options(**{f.name: getattr(self, f.name) for f in fields(Options)})

    def apply(self, options: Options) -> None:
        for f in fields(Options):
            setattr(self, f.name, getattr(options, f.name))

    @property
    def exhausted(self) -> bool:
        return self.max_notifications is not None and self.notifications_sent >= self.max_notifications

    @property
    def active(self) -> bool:
        """Sent to the adapter: enabled, and a tracepoint that has not used up its notifications."""
        return self.enabled and not self.exhausted and not self.lost

    @property
    def state(self) -> str:
        if not self.enabled:
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
        if self.kind == "watch" and self.data_id is None and self.enabled:
            return (f"not resolved: {self.watch!r} is looked up again at each stop, and watched once it names "
                    "something in the paused frame")
        if self.state == "pending":
            where = "at this line" if self.kind == "line" else "for this function" if self.kind == "function" else ""
            return (f"not bound: the adapter found no code {where} in what the program has loaded so far; "
                    "it binds if such code loads later").replace("  ", " ")
        return None

    def view(self) -> BreakpointView:
        return BreakpointView(
            id=self.id, type=self.kind if not self.log_message else "tracepoint", verified=self.verified,
            watch=self.watch, access=self.access if self.watch else None, value=self.value,
            state=self.state, enabled=self.enabled, file=self.file, line=self.actual_line or self.line,
            text=line_text(self.file, self.actual_line or self.line) if self.kind == "line" else None,
            function=self.function, exception=self.exception, exceptionTypes=list(self.exception_types) or None,
            condition=self.condition, hitCondition=self.hit_condition, logMessage=self.log_message,
            maxNotifications=self.max_notifications, hitCount=self.hit_count,
            notificationsSent=self.notifications_sent if self.log_message else None, message=self.note,
        )


@dataclass(frozen=True)
class Options:
    """What may be added to a breakpoint's place: each needs a capability of the adapter."""

    condition: str | None = None
    hit_condition: str | None = None
    log_message: str | None = None
    max_notifications: int | None = None
    enabled: bool = True
    exception_types: tuple[str, ...] = field(default=())

    @staticmethod
    def of(change: BreakpointChange, base: Options | None = None) -> Options:
        """The options an agent gave (a new breakpoint's, or a change by id); what it leaves out stays as in
        `base`."""
        base = base or Options()

        def pick(given: Any, current: Any) -> Any:
            return current if given is None else given

        return Options(condition=pick(change.condition, base.condition) or None,
                       hit_condition=pick(change.hitCondition, base.hit_condition) or None,
                       log_message=pick(change.logMessage, base.log_message) or None,
                       max_notifications=pick(change.maxNotifications, base.max_notifications),
                       enabled=pick(change.enabled, base.enabled) is not False,
                       exception_types=tuple(pick(change.exceptionTypes, base.exception_types) or ()))


def check_options(kind: Kind, options: Options, capabilities: dict[str, Any], profile: AdapterProfile) -> None:
    """Refuse, naming the missing capability, what the adapter would ignore or get wrong."""
    adapter = profile.name

    def need(capability: str, what: str) -> None:
        if not capabilities.get(capability):
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"{adapter} does not support {what} (no {capability})")

    if kind == "exception":
        if options.log_message or options.hit_condition:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "exception breakpoints take no logMessage or hitCondition")
        if options.condition:
            need("supportsExceptionFilterOptions", "conditions on exception breakpoints; use exceptionTypes")
        if options.exception_types:
            need("supportsExceptionOptions", "exception types on exception breakpoints")
    elif options.exception_types:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "exceptionTypes go with exception, not with a line or function")
    if kind == "watch" and options.log_message:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "a watch takes no logMessage: DAP has no tracepoints on data")
    if kind == "watch" and (options.condition or options.hit_condition) and not profile.watches.watch_conditions:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{adapter} would drop a watch's condition and hit condition and stop "
                         "at every write: watch without them and `continue` past the writes that are right, or use "
                         "adapter lldb")
    if kind == "function" and (options.condition or options.hit_condition) and not profile.breakpoints.function_conditions:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{adapter} would drop the condition and hit condition of a function "
                         "breakpoint and stop at every call: put the breakpoint on a line of the function instead")
    if options.condition and kind != "exception":
        need("supportsConditionalBreakpoints", "conditional breakpoints")
        _check_expression(options.condition, "condition", profile)
    if options.hit_condition:
        need("supportsHitConditionalBreakpoints", "hit conditions")
        hit = _HIT_CONDITION.match(options.hit_condition)
        if not hit or int(hit.group(2)) == 0:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"hitCondition {options.hit_condition!r} is not one of "
                             "'N', '== N', '>= N', '> N', '<= N', '< N', '% N' with N a positive number")
        hit_condition_sent(options.hit_condition, profile)
    if options.log_message:
        if kind == "function":
            raise DebugError(ErrorCode.NOT_SUPPORTED, "DAP has no tracepoints on functions; use file and line")
        need("supportsLogPoints", "tracepoints (logMessage)")
        _check_log_message(options.log_message, profile)
    if options.max_notifications is not None and not options.log_message:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "maxNotifications goes with logMessage (a tracepoint)")


def conditions_sent(bp: Breakpoint, profile: AdapterProfile, first_pass: str | None = None) -> dict[str, str]:
    """The breakpoint's `condition` and `hitCondition` as the adapter is to be given them: the hits counted in
    the condition where the profile says so (`counted_hits`), a line that a comprehension's frame runs too
    kept to the frame around it (`own_frame`), a function's first line to its first pass (`first_pass`). Alone,
    the condition goes as given; put beside those, it closes on a line of its own, so that a `#` comment at its
    end (which Python takes in a condition) does not comment the closing parenthesis out."""
    parts = [f"({bp.condition}\n)"] if bp.condition else []
    if first_pass:
        parts.insert(0, first_pass)
    sent: dict[str, str] = {}
    if bp.hit_condition and profile.breakpoints.counted_hits:
        hit = _HIT_CONDITION.match(bp.hit_condition)
        assert hit is not None, "checked by check_options"
        count, operator, number = profile.breakpoints.counted_hits.format(key=bp.id), hit.group(1) or "==", hit.group(2)
        parts.append(f"{count} % {number} == 0" if operator == "%" else f"{count} {operator} {number}")
    elif bp.hit_condition:
        sent["hitCondition"] = hit_condition_sent(bp.hit_condition, profile)
    guard = profile.stops.own_frame
    if bp.kind == "line" and guard and bp.file and bp.line in guard.lines(bp.file):
        parts.insert(0, guard.test)
    if parts:
        sent["condition"] = " and ".join(parts) if len(parts) > 1 or not bp.condition else bp.condition
    return sent


def hit_condition_sent(text: str, profile: AdapterProfile) -> str:
    """A checked hit condition as the adapter reads it (see `AdapterProfile.breakpoints.hit_counts`)."""
    if profile.breakpoints.hit_counts is None:
        return text
    hit = _HIT_CONDITION.match(text)
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
