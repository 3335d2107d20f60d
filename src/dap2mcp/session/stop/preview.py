"""A value's first level, shown inline where the adapter's own text hides it.

lldb-dap writes a struct as `account @ 0x7ff…` and a `std::vector` as `size=3`; cdt-gdb-adapter writes a
struct or a C++ container as `{...}` and a `char[64]` as `[64]`. An agent would have to evaluate field by
field. Here such a value is read once more, bounded: its children (`{owner: "Ada", balances: [10, 20, …],
opened: {…}}`), or where the adapter lists no children for what the debugger can print (gdb's pretty
printers for the C++ library), the debugger's own print of it. Values that already show their contents
(Delve's, debugpy's) are left as they are and cost nothing.

A preview costs one request per value previewed, all sent at once, and one more round for the arrays and
structs inside them; both are bounded (`VALUES`, `NESTED`, `CHARS`).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ...adapters.base import ValueShapes
from ...dap import AdapterRefused, AdapterTimedOut, bodies
from .inspect import FrameView, Limits, Preview, Previews, Requester, fetch_variables, shown_rows

VALUES = 8
"""Values previewed per view (the first ones shown): each costs the adapter one request."""
NESTED = 4
"""Arrays and structs inside one previewed value that are read in turn (a second round of requests)."""
CHARS = 200
"""A preview's length at most: a longer one ends in `…`."""
CHILD_CHARS = 60
"""One child's value inside a preview at most."""

PAGE = CHARS // 2
"""Children read of a value: no more fit in `CHARS` (each takes a character and its separator). Asked for
by count, one more to tell there are more, since lldb-dap builds every child asked for (a map of a million
entries took minutes)."""
KEEPS_TEXT = (AdapterRefused, AdapterTimedOut)
"""Failures of a preview's read that leave the value as the adapter wrote it: a refusal, or a read the adapter did
not answer in time (a formatter stuck on a broken value). The stop's context is not lost for a preview."""

_MAY_ACT = re.compile(r"\(|=|\+\+|--")
"""An expression that may call a function or assign: printing it would run it a second time."""

_INDEX = re.compile(r"\[\d+\]")


@dataclass(frozen=True)
class Place:
    """Where the values were read: what an adapter's printer needs to read them again."""

    thread_id: int
    frame_index: int


def wanted(raw: bodies.Variable, shapes: ValueShapes) -> str | None:
    """How `raw`'s contents can be shown: "replace" its text, "append" to it, "members" (replace it with a preview
    of its members, where the debugger's own text is too long to show them), or None (it shows them already)."""
    value, kind = raw.value, raw.type or ""
    readable = bool(raw.variablesReference) or shapes.printer is not None
    if not readable:
        return None
    if (shapes.opaque is not None and shapes.opaque.fullmatch(value)) or \
            (shapes.opaque_types is not None and shapes.opaque_types.search(kind)):
        return "replace"
    if shapes.bare is not None and shapes.bare.fullmatch(value) and raw.variablesReference:
        return "append"
    if raw.variablesReference and _too_long_struct(value, shapes):
        return "members"
    return None


async def preview(client: Requester, variables: Iterable[bodies.Variable], shapes: ValueShapes,
                  place: Place | None) -> Previews:
    """Previews of the first `VALUES` of `variables` that hide their contents, by the `id()` of each."""
    chosen = [(raw, how) for raw in variables if (how := wanted(raw, shapes))][:VALUES]
    if not chosen:
        return {}
    read = await asyncio.gather(*(_read(client, raw, how, shapes, place) for raw, how in chosen))
    previews: Previews = {}
    for (raw, how), (text, members) in zip(chosen, read, strict=True):
        if text and not (how == "append" and text in ("{}", "[]")):  # `size=0` says it all
            previews[id(raw)] = Preview(text if how in ("replace", "members") else f"{raw.value} {text}",
                                        None if members is None else [m for m in members if m.kind != "method"])
    return previews


async def preview_view(client: Requester, view: FrameView, shapes: ValueShapes, limits: Limits,
                       hidden: frozenset[str]) -> None:
    """Previews for the variables a context shows of `view` (see `inspect.to_scopes`), into `view.previews`."""
    if view.focus is None or shapes == ValueShapes():
        return
    rows = [raw for row in shown_rows(view.scopes, view.variables, limits, hidden, shapes.toolchain_globals)
            for raw in row.variables or ()]
    view.previews.update(await preview(client, rows, shapes, Place(view.thread_id, view.focus_index)))


async def _read(client: Requester, raw: bodies.Variable, how: str, shapes: ValueShapes,
                place: Place | None) -> tuple[str | None, list[bodies.Variable] | None]:
    """The preview's text, and the members it was made of where they were read (not a debugger's print)."""
    try:
        if shapes.printer is not None and how != "members":
            expression = raw.evaluateName or raw.name or ""
            if not expression or place is None or _MAY_ACT.search(expression):
                return None, None
            # a pointer's address comes with what it points to
            text = await printed(client, f"*({expression})" if how == "append" else expression, shapes, place)
            if text and shapes.owner_print is not None and shapes.owner_print.fullmatch(text):
                pointee = await printed(client, f"*({expression})", shapes, place)  # a smart pointer's
                text = _clip(f"{text} -> {pointee}", CHARS) if pointee else text
            if not (text and raw.variablesReference and _too_long_struct(text, shapes)):
                return text, None
        children = await fetch_variables(client, raw.variablesReference, PAGE + 1)
        inner = [c for c in children if wanted(c, shapes)][:NESTED]
        nested = await asyncio.gather(*(_inner(client, c) for c in inner))
        return render(children, shapes, dict(zip((id(c) for c in inner), nested, strict=True))), children[:PAGE]
    except KEEPS_TEXT:
        return None, None  # the adapter's own text stays


def _too_long_struct(text: str, shapes: ValueShapes) -> bool:
    """Whether `text` is the debugger's own print of a struct too long to show whole (see `printed_struct`)."""
    return shapes.printed_struct is not None and len(text) >= CHARS and shapes.printed_struct.match(text) is not None


async def _inner(client: Requester, raw: bodies.Variable) -> list[bodies.Variable] | None:
    try:
        return await fetch_variables(client, raw.variablesReference, PAGE + 1)
    except KEEPS_TEXT:
        return None


async def printed(client: Requester, expression: str, shapes: ValueShapes, place: Place) -> str | None:
    """The debugger's own print of `expression` (gdb's, with its pretty printers), bounded."""
    assert shapes.printer is not None
    command, template = shapes.printer
    quoted = '"' + expression.replace("\\", "\\\\").replace('"', '\\"') + '"'
    body = await client.request(command, {"command": template.format(
        thread=place.thread_id, frame=place.frame_index, expression=quoted)})
    value = (body.get("result") or {}).get("value") if isinstance(body.get("result"), dict) else None
    return _clip(str(value), CHARS) if value else None


def render(children: list[bodies.Variable], shapes: ValueShapes, nested: dict[int, list[bodies.Variable] | None]) -> str:
    """`[a, b, …]` for an array's elements, `{name: value, …}` for fields; within `CHARS`. `NULL` for what a NULL
    pointer points to. `nested`: the members read of some children, by their `id()`."""
    if shapes.null_member is not None and children and all(c.value == shapes.null_member for c in children):
        return "NULL"
    elements = bool(children) and all(_INDEX.fullmatch(c.name) for c in children)
    parts: list[str] = []
    length = 2
    more = len(children) > PAGE
    for child in children[:PAGE]:
        inner = nested.get(id(child))
        if inner is None:
            text = _child_value(child, shapes)
        elif wanted(child, shapes) == "append":  # `size=2 [9.5, 10.25]`; `size=0` alone
            text = " ".join(filter(None, (_clip(child.value, CHILD_CHARS),
                                          inner and render(inner, shapes, {}))))
        else:
            text = render(inner, shapes, {})
        text = _clip(text, CHILD_CHARS)  # each member bounded: a long first one would leave no room for the rest
        part = text if elements else f"{child.name}: {text}"
        if length + len(part) > CHARS - 3:
            parts.append("…")
            break
        parts.append(part)
        length += len(part) + 2
    else:
        if more:
            parts.append("…")
    body = ", ".join(parts)
    return f"[{body}]" if elements else f"{{{body}}}"


def _child_value(child: bodies.Variable, shapes: ValueShapes) -> str:
    """A child shown within its parent's preview: `{…}` (`[…]` for an array) where its text hides it."""
    if wanted(child, shapes) == "replace" and child.variablesReference:
        return "[…]" if (child.type or "").rstrip().endswith("]") else "{…}"
    return _clip(child.value, CHILD_CHARS)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
