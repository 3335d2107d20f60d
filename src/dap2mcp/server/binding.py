"""How a tool function becomes the SDK's `Tool`: a tool is a module-level `async def` whose first parameter is
what it acts on, filled in per call; the rest are the tool's arguments, and its schema comes from their types.

A first parameter typed `SessionHandle` is the session the call's `sessionId` names (the current one without it),
looked up once, here, and `sessionId` is added as the tool's last argument; one typed `Debugger` is the debugger
itself, for the tools that act across sessions or name one themselves: `debug`, `stop`, `info` (`sessions` needs
none), and those whose arguments are refused before a missing session is (`clear-breakpoints`, `memory`).

A parameter typed `Spread[Model]` is a group of arguments that belong together (`debug`'s launch request): the
model's fields are the tool's arguments, side by side with the others, and the function gets the model.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import BaseModel, Field
from pydantic_core import PydanticUndefined

from ..session.debugger import Debugger
from ..session.handle import SessionHandle
from .results import in_context

SessionId = Annotated[str | None, Field(max_length=100, description="Default: current.")]

ToolFunction = Callable[..., Awaitable[Any]]

ASKED = {"step": "step"}
"""The stop a tool's call asks for, by its `reason`: said by the call, left out of its answer's text."""

_SPREAD = object()
Model = TypeVar("Model", bound=BaseModel)
Spread = Annotated[Model, _SPREAD]
"""A model whose fields are the tool's arguments, given to the function whole."""


@dataclass(frozen=True)
class ToolMark:
    """What `tool` puts on a function: its name and title for the agent, and the hints of its annotations."""

    name: str
    title: str | None
    hints: ToolAnnotations


def tool(name: str, title: str | None = None, *, read_only: bool = False, destructive: bool = False,
         idempotent: bool = False) -> Callable[[ToolFunction], ToolFunction]:
    """Mark a function as the tool `name`; its docstring, as one paragraph, is the description an agent reads."""
    hints = ToolAnnotations(read_only_hint=read_only, destructive_hint=destructive, idempotent_hint=idempotent,
                            open_world_hint=False)

    def mark(fn: ToolFunction) -> ToolFunction:
        fn.tool = ToolMark(name, title, hints)  # type: ignore[attr-defined]
        return fn
    return mark


def bind(fn: ToolFunction, debugger: Debugger) -> Tool:
    """The SDK's tool for `fn`, acting on `debugger`'s sessions.

    The output schema is published from the result model in the return annotation. The SDK would also
    check each result against that model, but every result is dumped from an instance of it (`results.ok`),
    so the check repeats pydantic's own work on every call; the model is taken off the tool's metadata,
    which the SDK reads live, and the schema stays.

    The input schema is published lean (`lean_input`): the arguments are still validated by the function's own
    pydantic model, which the SDK builds apart from the schema it publishes."""
    mark: ToolMark = fn.tool  # type: ignore[attr-defined]
    signature = inspect.signature(fn, eval_str=True)
    first, *rest = signature.parameters.values()
    assert first.annotation in (Debugger, SessionHandle), f"{mark.name}: its first parameter is what it acts on"
    on_session = first.annotation is SessionHandle
    if on_session:
        session_id = inspect.Parameter("sessionId", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=SessionId)
        at = next((i for i, p in enumerate(rest) if p.annotation in (Context, Context | None)), len(rest))
        rest = [*rest[:at], session_id, *rest[at:]]
    spread = {p.name: p.annotation.__origin__ for p in rest if _SPREAD in getattr(p.annotation, "__metadata__", ())}
    rest = [field for p in rest for field in (_fields(p.annotation.__origin__) if p.name in spread else [p])]
    rest = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in rest]

    @functools.wraps(fn)
    async def call(**arguments: Any) -> Any:
        on = debugger.handle(arguments.pop("sessionId")) if on_session else debugger
        for name, model in spread.items():
            arguments[name] = model(**{field: arguments.pop(field) for field in model.model_fields})
        result = await fn(on, **arguments)
        if not isinstance(result, CallToolResult) or not isinstance(data := result.structured_content, dict):
            return result
        lone = len(debugger.sessions) == 1 and data.get("sessionId") == next(iter(debugger.sessions)).id
        return in_context(result, lone_session=lone, asked=ASKED.get(mark.name))

    del call.__wrapped__  # the SDK reads the signature below, not `fn`'s
    call.__signature__ = signature.replace(parameters=rest)  # type: ignore[attr-defined]
    call.__annotations__ = {p.name: p.annotation for p in rest} | {"return": signature.return_annotation}
    description = " ".join((fn.__doc__ or "").split())
    built = Tool.from_function(call, name=mark.name, title=mark.title, description=description,
                               annotations=mark.hints, structured_output=True)
    built.fn_metadata.output_model = None
    built.parameters = lean_input(built.parameters)
    for spec in built.parameters.get("$defs", {}).values():  # described once, where they are arguments:
        spec.pop("description", None)  # a breakpoint's fields by `breakpoint`, a `to`'s too, pathMappings'
        for field in spec.get("properties", {}).values():  # by the argument's own description
            field.pop("description", None)
    return built


def _fields(model: type[BaseModel]) -> list[inspect.Parameter]:
    """A spread model's fields as the parameters they stand for: each with its annotation as written (the
    description and bounds in it) and its default."""
    hints = typing.get_type_hints(model, include_extras=True)
    return [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=hints[name],
                              default=inspect.Parameter.empty if info.default is PydanticUndefined else info.default)
            for name, info in model.model_fields.items()]


_NULL = {"type": "null"}


def lean_input(node: Any) -> Any:
    """An input schema as a model reads it (issue 38 point 6): without pydantic's titles, which repeat each
    argument's name, and with an optional argument (`X | None = None`) written as X alone, absent meaning the
    default. Half of what the descriptions and input schemas of tools/list held was these."""
    if isinstance(node, list):
        return [lean_input(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: {name: lean_input(value) for name, value in child.items()} if key in ("properties", "$defs")
           else lean_input(child) for key, child in node.items() if key != "title"}
    options = out.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and _NULL in options and "default" in out \
            and out["default"] is None:
        other = options[0] if options[1] == _NULL else options[1]
        out = {**other, **{key: value for key, value in out.items() if key not in ("anyOf", "default")}}
    return out
