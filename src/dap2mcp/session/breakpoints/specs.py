"""A breakpoint as an agent asks for one, parsed once where the request comes in and passed as it is
from there to the checks, the registry and the `Breakpoint` it becomes.

The models are the tools' input schema too (their field names, bounds and descriptions are what an
agent reads), so a value that exists here is one the tools accepted: the session need not check
again what the spec's own validators refuse. The options that may go with a place are declared once
(`BreakpointOptions`): a new breakpoint's, a change by id and the registry's breakpoints are all of them.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

PATH_CHARS = 4096
"""Longer is no path (Linux's PATH_MAX); refused rather than echoed back in answers the client must read."""
TEXT_CHARS = 10_000
"""The same for names, conditions and log messages."""

File = Annotated[str | None, Field(max_length=PATH_CHARS, description="Source file (with line).")]
Line = Annotated[int | None, Field(ge=1, description="Line number, from 1.")]
Text = Annotated[str | None, Field(min_length=1, max_length=TEXT_CHARS, description=(
    "With file, instead of line: the line whose code contains this ('total += price')."))]
Function = Annotated[str | None, Field(max_length=TEXT_CHARS, description=(
    "Function name, e.g. json.loads."))]
ExceptionFilter = Annotated[str | None, Field(max_length=TEXT_CHARS, description=(
    "An adapter's exception filter (debugpy: 'raised', 'uncaught', 'userUnhandled')."))]
ExceptionTypes = Annotated[list[Annotated[str, Field(max_length=TEXT_CHARS)]] | None, Field(max_length=100, description=(
    "With exception: only these types."))]
Condition = Annotated[str | None, Field(max_length=TEXT_CHARS, description="Stop only when this expression is true.")]
HitCondition = Annotated[str | None, Field(max_length=TEXT_CHARS, description=(
    "Stop by hit count: 'N', '>= N', '% N' (every Nth), ..."))]
LogMessage = Annotated[str | None, Field(max_length=TEXT_CHARS, description=(
    "A tracepoint: log this ({expression} evaluated), do not stop."))]
MaxNotifications = Annotated[int | None, Field(ge=1, description=(
    "A tracepoint's most messages."))]
Enabled = Annotated[bool | None, Field(description="false: do not stop there.")]
Watch = Annotated[str | None, Field(max_length=TEXT_CHARS, description=(
    "A watch: stop where what this expression names is written (C, C++, Rust)."))]
Access = Annotated[Literal["write", "read", "readWrite"] | None, Field(description=(
    "With watch: 'write' (default), 'read', 'readWrite'."))]

Kind = Literal["line", "function", "exception", "watch"]

_FROZEN = ConfigDict(extra="forbid", frozen=True)


def _one_place(file: str | None, line: int | None, function: str | None, text: str | None) -> None:
    """The place rule `continue`'s `to` and a breakpoint share; its messages are what an agent is told."""
    if function and (file or line or text):
        raise ValueError("give either function, or file and line (or text), not both")
    if not function and not (file and (line or text)):
        raise ValueError("give file and line (or text, a part of the line), or function")
    if text is not None and not text.strip():
        raise ValueError("text is blank: give a part of the line's code")


class Location(BaseModel):
    """`{file, line}`, `{file, text}` or `{function}`."""

    model_config = _FROZEN

    file: File = None
    line: Line = None
    text: Text = None
    function: Function = None

    @model_validator(mode="after")
    def _one_kind(self) -> Location:
        _one_place(self.file, self.line, self.function, self.text)
        return self


class _Frozen(BaseModel):
    model_config = _FROZEN


class _Place(_Frozen):
    """Where a breakpoint is: a line, a function, or the exceptions of an exception filter."""

    file: File = None
    line: Line = None
    text: Text = None
    function: Function = None
    exception: ExceptionFilter = None


class _Watch(_Frozen):
    """What a watch (a data breakpoint) is on, in place of a place."""

    watch: Watch = None
    access: Access = None


class _ExceptionTypes(_Frozen):
    """The option that narrows an exception filter: apart from the others, which the spec lists after its watch."""

    exceptionTypes: ExceptionTypes = None


class _Stops(_Frozen):
    """The options of when it stops, or logs instead."""

    condition: Condition = None
    hitCondition: HitCondition = None
    logMessage: LogMessage = None
    maxNotifications: MaxNotifications = None
    enabled: Enabled = None


class BreakpointOptions(_Stops, _ExceptionTypes):
    """What may be added to a breakpoint's place, the one set of options a new breakpoint (`BreakpointSpec`), a
    change by id (`BreakpointChange`) and a breakpoint of the registry (`Breakpoint.options`) carry. Given, None
    is an option left out; held by a breakpoint (`over`), each is set or None, and `enabled` true or false."""

    def over(self, base: BreakpointOptions | None = None) -> BreakpointOptions:
        """The options a breakpoint holds once these are given to it: each given one replaces `base`'s (its
        options so far, for a change by id), an empty condition, hit condition, log message or exceptionTypes
        removes it, and a breakpoint is enabled unless told otherwise."""
        given = self.model_dump(include=set(BreakpointOptions.model_fields), exclude_none=True)
        merged = {**(base.model_dump() if base else {}), **given}
        kept = {name: value for name, value in merged.items() if value != "" and value != []}
        return BreakpointOptions(**{**kept, "enabled": merged.get("enabled") is not False})


BreakpointChange = BreakpointOptions
"""The options of a breakpoint, as `breakpoint` with `id` changes them: each one given replaces the
breakpoint's, each left out (None) stays as it is. An empty condition, hit condition or log message,
or empty exceptionTypes, removes it."""


# pydantic takes the fields of the last base first: the bases' order is the fields' order in the tools' schema
class BreakpointSpec(BreakpointOptions, _Watch, _ExceptionTypes, _Place):
    """One breakpoint, as both `debug`'s `breakpoints` and the `breakpoint` tool take it: a place
    (`{file, line}`, `{function}`) or an exception filter, with the same options."""

    @model_validator(mode="after")
    def _one_kind(self) -> BreakpointSpec:
        if self.access and not self.watch:
            raise ValueError("access goes with watch")
        if self.watch is not None:
            if self.file or self.line or self.text or self.function or self.exception:
                raise ValueError("give watch, or a place (file and line, function), or exception: one of them")
            if not self.watch.strip():
                raise ValueError("watch is blank: give the expression to watch")
        elif self.exception:
            if self.file or self.line or self.text or self.function:
                raise ValueError("give exception, or a place (file and line, function), not both")
        else:
            _one_place(self.file, self.line, self.function, self.text)
        return self

    @classmethod
    def at(cls, location: Location) -> BreakpointSpec:
        """A plain breakpoint at `location` (`continue`'s `to`, a stop on entry's `main`)."""
        return cls(file=location.file, line=location.line, text=location.text, function=location.function)

    @property
    def kind(self) -> Kind:
        return "watch" if self.watch else "exception" if self.exception else "function" if self.function else "line"


MAX_PATH_MAPPINGS = 32
"""More is no layout of a program's sources but a mistake; each mapping is sent on, and tried, per path."""


class PathMapping(BaseModel):
    """Where a program that runs elsewhere (a container, another machine) has the files the agent has here:
    the agent gives breakpoints and reads locations by `local`, the adapter finds them by `remote`."""

    model_config = _FROZEN

    local: Annotated[str, Field(min_length=1, max_length=PATH_CHARS, description=(
        "A directory (or file) here, as the agent names it; a relative one is read as a relative breakpoint `file` is."))]
    remote: Annotated[str, Field(min_length=1, max_length=PATH_CHARS, description=(
        "The same directory (or file) as the running program names it."))]

    @model_validator(mode="after")
    def _real_paths(self) -> PathMapping:
        for name, value in (("local", self.local), ("remote", self.remote)):
            if not value.strip():
                raise ValueError(f"a path mapping's {name} path is blank")
            if "\0" in value:
                raise ValueError(f"a path mapping's {name} path contains a NUL character")
        return self
