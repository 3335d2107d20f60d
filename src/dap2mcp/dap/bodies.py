"""The DAP bodies dap2mcp reads most, as types: the `stopped`, `output` and `breakpoint` events, and the answers
to `stackTrace`, `scopes`, `variables`, `threads` and the `set…Breakpoints` requests. Each is read once, where it
arrives (`session.program.link`), so the code above reads attributes instead of guessing keys of raw dicts.

Field names are the specification's own (camelCase), and so are the types, with two allowances for what real
adapters send. Fields outside the specification are kept (`model_extra`), and no body ever fails to read: a value
of the wrong type is dropped, as if the adapter had left it out, and a required field left out is its type's
empty value (`""`, `0`, `False`, `[]`), as the dict reads with a default that it replaces made of it. An
enumeration is a plain `str`, since adapters add their own values (js-debug's frame hint `deemphasize`).
"""

from __future__ import annotations

import logging
import types
import typing
from functools import cache
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

log = logging.getLogger(__name__)


class Body(BaseModel):
    """A DAP object read leniently (see the module's docstring); `SPEC` names its definition in the DAP schema."""

    model_config = ConfigDict(extra="allow", coerce_numbers_to_str=True)
    SPEC: ClassVar[tuple[str, ...]] = ()
    """The schema's definitions this model stands for: an object's, or for a body its event's or response's."""

    @classmethod
    def read(cls, raw: object) -> Self:
        """`raw` as this model, whatever it holds; the schema's fast path where it fits."""
        try:
            return cls.model_validate(raw)
        except ValidationError as exc:
            if log.isEnabledFor(logging.DEBUG):
                log.debug("%s read leniently: %s", cls.__name__, exc.errors(include_url=False, include_input=False))
            return cls._mended(raw)

    @classmethod
    def _mended(cls, raw: object) -> Self:
        """Field by field: values that fit kept, the others dropped or made empty (see the module's docstring)."""
        data = raw if isinstance(raw, dict) else {}
        values: dict[str, Any] = {}
        given: set[str] = set()
        for name, field in cls.model_fields.items():
            value = _mended(field.annotation, data[name]) if name in data else _UNFIT
            if value is not _UNFIT:
                values[name] = value
                given.add(name)
            elif field.is_required():
                values[name] = _empty(field.annotation)
            else:
                values[name] = field.get_default(call_default_factory=True)
        extra = {key: value for key, value in data.items() if key not in cls.model_fields and isinstance(key, str)}
        return cls.model_construct(given | extra.keys(), **values, **extra)


_UNFIT = object()


@cache
def _adapter(annotation: Any) -> TypeAdapter[Any]:
    """A field's own validator, as lax as the model's (a model type brings its own configuration)."""
    return TypeAdapter(annotation) if _is_body(annotation) else TypeAdapter(annotation, config=Body.model_config)


def _is_body(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, Body)


def _mended(annotation: Any, value: object) -> Any:
    """`value` as `annotation`, mended inside where it is a body or a list of them; `_UNFIT` where it cannot be."""
    try:
        return _adapter(annotation).validate_python(value)
    except ValidationError:
        pass
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (types.UnionType, typing.Union):
        for member in arguments:
            if member is not type(None) and (mended := _mended(member, value)) is not _UNFIT:
                return mended
        return _UNFIT
    if _is_body(annotation):
        return annotation._mended(value) if isinstance(value, dict) else _UNFIT
    if origin is list and isinstance(value, list) and _is_body(arguments[0]):
        return [arguments[0].read(item) for item in value]  # an item that is no object: an empty one, in its place
    return _UNFIT


def _empty(annotation: Any) -> Any:
    """What a required field holds where the adapter left it out or sent what does not fit (a list's is `[]`)."""
    if _is_body(annotation):
        return annotation._mended({})
    return {str: "", int: 0, bool: False}.get(annotation, [])


# -- objects -----------------------------------------------------------------------------------------


class Checksum(Body):
    SPEC = ("Checksum",)
    algorithm: str
    checksum: str


class Source(Body):
    SPEC = ("Source",)
    name: str | None = None
    path: str | None = None
    sourceReference: int | None = None
    presentationHint: str | None = None
    origin: str | None = None
    sources: list[Source] | None = None
    adapterData: Any = None
    checksums: list[Checksum] | None = None


class StackFrame(Body):
    SPEC = ("StackFrame",)
    id: int
    name: str
    source: Source | None = None
    line: int
    column: int
    endLine: int | None = None
    endColumn: int | None = None
    canRestart: bool | None = None
    instructionPointerReference: str | None = None
    moduleId: int | str | None = None
    presentationHint: str | None = None

    @property
    def path(self) -> str | None:
        """The frame's source file's path, where it has one."""
        return self.source.path if self.source is not None else None


class Scope(Body):
    SPEC = ("Scope",)
    name: str
    presentationHint: str | None = None
    variablesReference: int
    namedVariables: int | None = None
    indexedVariables: int | None = None
    expensive: bool
    source: Source | None = None
    line: int | None = None
    column: int | None = None
    endLine: int | None = None
    endColumn: int | None = None


class VariablePresentationHint(Body):
    SPEC = ("VariablePresentationHint",)
    kind: str | None = None
    attributes: list[str] | None = None
    visibility: str | None = None
    lazy: bool | None = None


class Variable(Body):
    SPEC = ("Variable",)
    name: str
    value: str
    type: str | None = None
    presentationHint: VariablePresentationHint | None = None
    evaluateName: str | None = None
    variablesReference: int
    namedVariables: int | None = None
    indexedVariables: int | None = None
    memoryReference: str | None = None
    declarationLocationReference: int | None = None
    valueLocationReference: int | None = None

    @property
    def kind(self) -> str | None:
        """What its presentation hint says it is (`method`, `property`, `data`, …), where it says."""
        return self.presentationHint.kind if self.presentationHint is not None else None


class Thread(Body):
    SPEC = ("Thread",)
    id: int
    name: str


class Breakpoint(Body):
    SPEC = ("Breakpoint",)
    id: int | None = None
    verified: bool
    message: str | None = None
    source: Source | None = None
    line: int | None = None
    column: int | None = None
    endLine: int | None = None
    endColumn: int | None = None
    instructionReference: str | None = None
    offset: int | None = None
    reason: str | None = None


# -- responses ---------------------------------------------------------------------------------------


class StackTraceBody(Body):
    SPEC = ("StackTraceResponse",)
    stackFrames: list[StackFrame]
    totalFrames: int | None = None


class ScopesBody(Body):
    SPEC = ("ScopesResponse",)
    scopes: list[Scope]


class VariablesBody(Body):
    SPEC = ("VariablesResponse",)
    variables: list[Variable]


class ThreadsBody(Body):
    SPEC = ("ThreadsResponse",)
    threads: list[Thread]


class BreakpointsBody(Body):
    """The answer to `setBreakpoints`, `setFunctionBreakpoints` and `setDataBreakpoints`: one breakpoint for each
    sent, in the order sent."""

    SPEC = ("SetBreakpointsResponse", "SetFunctionBreakpointsResponse", "SetDataBreakpointsResponse")
    breakpoints: list[Breakpoint]


class ExceptionBreakpointsBody(Body):
    """The answer to `setExceptionBreakpoints`, which may say nothing of the filters set (debugpy's has no body)."""

    SPEC = ("SetExceptionBreakpointsResponse",)
    breakpoints: list[Breakpoint] | None = None


# -- events ------------------------------------------------------------------------------------------


class StoppedBody(Body):
    SPEC = ("StoppedEvent",)
    reason: str
    description: str | None = None
    threadId: int | None = None
    preserveFocusHint: bool | None = None
    text: str | None = None
    allThreadsStopped: bool | None = None
    hitBreakpointIds: list[int] | None = None


class OutputBody(Body):
    SPEC = ("OutputEvent",)
    category: str | None = None
    output: str
    group: str | None = None
    variablesReference: int | None = None
    source: Source | None = None
    line: int | None = None
    column: int | None = None
    data: Any = None
    locationReference: int | None = None


class BreakpointEventBody(Body):
    SPEC = ("BreakpointEvent",)
    reason: str
    breakpoint: Breakpoint


RESPONSES: dict[str, type[Body]] = {
    "stackTrace": StackTraceBody, "scopes": ScopesBody, "variables": VariablesBody, "threads": ThreadsBody,
    "setBreakpoints": BreakpointsBody, "setFunctionBreakpoints": BreakpointsBody,
    "setDataBreakpoints": BreakpointsBody, "setExceptionBreakpoints": ExceptionBreakpointsBody,
}
"""The responses read as types, by command; every other response body stays the adapter's dict."""

EVENTS: dict[str, type[Body]] = {"stopped": StoppedBody, "output": OutputBody, "breakpoint": BreakpointEventBody}
"""The events read as types, by name; every other event's body stays the adapter's dict."""

BreakpointsCommand = typing.Literal["setBreakpoints", "setFunctionBreakpoints", "setDataBreakpoints"]
"""The commands answered with a `BreakpointsBody`."""


def response(command: str, body: dict[str, Any]) -> Any:
    """A response's body as its type where it has one (`RESPONSES`), else as the adapter sent it."""
    model = RESPONSES.get(command)
    return model.read(body) if model is not None else body


def event(name: str, body: dict[str, Any]) -> Any:
    """An event's body as its type where it has one (`EVENTS`), else as the adapter sent it."""
    model = EVENTS.get(name)
    return model.read(body) if model is not None else body


__all__ = ["Body", "Breakpoint", "BreakpointEventBody", "BreakpointsBody", "Checksum", "ExceptionBreakpointsBody",
           "OutputBody", "Scope", "ScopesBody", "Source", "StackFrame", "StackTraceBody", "StoppedBody", "Thread",
           "ThreadsBody", "Variable", "VariablePresentationHint", "VariablesBody", "event", "response"]

