"""What the session hands upward: bounded, typed views of the debuggee's state."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

State = Literal["starting", "running", "paused", "terminated"]


class _Model(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class Location(_Model):
    file: str | None = None
    line: int | None = None
    column: int | None = None
    function: str | None = None


class Frame(_Model):
    id: int
    function: str
    file: str | None = None
    line: int | None = None
    column: int | None = None


class Variable(_Model):
    name: str
    value: str
    type: str | None = None
    variablesReference: int | None = None
    """Non-zero when the value has children (pass to `evaluate` or a snapshot to expand)."""
    valueTruncated: bool | None = None


class Scope(_Model):
    name: str
    variables: list[Variable]
    total: int
    truncated: bool = False
    expensive: bool | None = None


class ExceptionDetails(_Model):
    exceptionId: str | None = None
    description: str | None = None
    breakMode: str | None = None
    typeName: str | None = None
    message: str | None = None
    stackTrace: str | None = None


class Thread(_Model):
    id: int
    name: str


class Output(_Model):
    text: str
    truncated: bool = False
    """True when older text was dropped to stay within the bound."""


class Context(_Model):
    """Where the program is and what it holds, or how it ended."""

    state: State
    reason: str | None = None
    description: str | None = None
    threadId: int | None = None
    location: Location | None = None
    frames: list[Frame] | None = None
    totalFrames: int | None = None
    framesTruncated: bool | None = None
    scopes: list[Scope] | None = None
    exception: ExceptionDetails | None = None
    threads: list[Thread] | None = None
    output: Output | None = None
    exitCode: int | None = None
    hint: str | None = None


class BreakpointView(_Model):
    id: int
    verified: bool
    file: str | None = None
    line: int | None = None
    function: str | None = None
    message: str | None = None
