"""The seed's response envelope: `{"success": true, ...}` or `{"success": false, "error": {...}}`."""

from __future__ import annotations

import json
from typing import Any, Literal

import toons
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, ConfigDict

from ..errors import DebugError
from ..session.models import BreakpointView, Context, Opt, lean_schema
from ..snapshots import Snapshot
from ..text import has_lone_surrogate, valid_unicode


class Ok(BaseModel):
    model_config = ConfigDict(json_schema_extra=lean_schema)

    success: Literal[True] = True
    sessionId: Opt[str] = None
    """The session the result is about."""


# The published output schemas of the execution tools and of `breakpoint`: what an agent sees is the session's
# own model (a Context, a BreakpointView), which `ok` sends with `success` added; these are never built.
class ContextResult(Ok, Context):
    pass


class BreakpointResult(Ok, BreakpointView):
    pass


class ClearResult(Ok):
    removed: list[int]
    remaining: int


class StoppedSession(BaseModel):
    model_config = ConfigDict(json_schema_extra=lean_schema)

    sessionId: str
    state: Literal["terminated"]
    exitCode: Opt[int] = None
    output: Opt[str] = None
    outputTruncated: Opt[bool] = None
    description: Opt[str] = None


class StopResult(Ok):
    state: Literal["terminated"]
    exitCode: Opt[int] = None
    output: Opt[str] = None
    description: Opt[str] = None
    """With `signal`: whether the program ended by itself after it, or was ended when `timeout` ran out; after an
    attach or a connect, that the program was detached from and runs on."""
    outputTruncated: Opt[bool] = None
    """True when `output` holds only the last 8,000 characters (`output` reads the rest)."""
    stopped: Opt[list[StoppedSession]] = None
    """With `all`: each session stopped, as one `stop` answers for it."""


class ValueResult(Ok):
    value: str
    type: Opt[str] = None
    variablesReference: Opt[int] = None
    truncated: Opt[bool] = None
    children: Opt[list[dict[str, Any]]] = None
    """`evaluate` with a `depth`: the value's members, `{name, value, type}` and their own `children`."""
    leftOut: Opt[list[str]] = None
    """Expressions of the parts of the value the answer leaves out (its text cut them, or members past a bound)."""
    leftOutTotal: Opt[int] = None
    """How many parts were left out, where `leftOut` names only the first ones."""
    expand: Opt[str] = None
    """How to see the parts left out."""
    output: Opt[str] = None
    """What the program printed while evaluating."""
    hint: Opt[str] = None
    """Why an evaluation that printed shows no output (pytest capturing it)."""
    outputTruncated: Opt[bool] = None
    """True when `output` holds only the last 8,000 characters of it."""
    outputIncomplete: Opt[bool] = None
    """True when the program's output was still arriving: the evaluation's printing may come later, or
    the program's earlier output be mixed in (the `output` tool has it all)."""


class SetVariableResult(ValueResult):
    name: str
    scope: Opt[str] = None


class InfoResult(Ok):
    type: Literal["sources", "modules", "sessions", "threads"]
    items: list[dict[str, Any]]
    total: int
    truncated: bool
    nextOffset: Opt[int] = None


class OutputResult(Ok):
    text: str
    offset: int
    nextOffset: int
    end: int
    dropped: Opt[int] = None
    """Characters before `offset` that are no longer kept."""


class DisassembleResult(Ok):
    instructions: list[dict[str, Any]]


class Recording(Ok):
    recording: bool
    maxInstructions: int | None = None
    """How much the recording holds (gdb: instructions; the oldest are dropped past it)."""


class SavedCore(Ok):
    path: str
    bytes: int


class MemoryRow(BaseModel):
    address: str
    hex: str
    """The row's bytes in hex, spaced."""
    text: str
    """The row's bytes as characters, '.' for those not printable."""


class MemoryResult(Ok):
    address: str
    """Where the first byte read is."""
    count: int
    """Bytes read."""
    unreadableBytes: int | None = None
    """Bytes past those read that could not be read (unmapped memory)."""
    rows: list[MemoryRow]


TEXT_FORMATS = ("toon", "json")
_text_format = "toon"


def use_text_format(name: str) -> None:
    """How every result's text content is written from now on (`dap2mcp serve --text`).

    Programs read the structured content; the model reads the text. TOON (toonformat.dev) writes
    the same JSON data model with lists of records as tables (a field a record lacks is a null
    cell): a step's context is about a quarter smaller than compact JSON. `json` is for clients
    that parse the text.
    """
    if name not in TEXT_FORMATS:
        raise ValueError(f"text format is one of {TEXT_FORMATS}, not {name!r}")
    global _text_format
    _text_format = name


_SCALARS = (str, int, float, bool, type(None))


def _tables(node: Any) -> Any:
    """`node` with each list of flat records given the same fields, null where a record lacks one:
    TOON writes such a list as one table (a header, then a row per record), and leaves a list of
    records with differing fields (a variable with children among plain ones) as a long listing."""
    if isinstance(node, dict):
        return {key: _tables(value) for key, value in node.items()}
    if not isinstance(node, list):
        return node
    if node and all(isinstance(item, dict) and all(isinstance(v, _SCALARS) for v in item.values()) for item in node):
        fields = list(dict.fromkeys(key for item in node for key in item))
        return [{key: item.get(key) for key in fields} for item in node]
    return [_tables(item) for item in node]


def as_text(payload: dict[str, Any], *, lone_session: bool = False, asked: str | None = None) -> str:
    if _text_format == "toon":
        return toons.dumps(_tables(lean_view(payload, lone_session=lone_session, asked=asked)))
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def in_context(result: CallToolResult, *, lone_session: bool, asked: str | None) -> CallToolResult:
    """`result` with its text written knowing what the call's answer can leave out (`lean_view`'s `lone_session`
    and `asked`), where the text is TOON."""
    payload = result.structured_content
    if _text_format != "toon" or not isinstance(payload, dict) or not (lone_session or asked):
        return result
    text = as_text(payload, lone_session=lone_session, asked=asked)
    return result.model_copy(update={"content": [TextContent(type="text", text=text)]})


_PLACE = ("file", "line", "function")


def lean_view(payload: dict[str, Any], *, lone_session: bool = False, asked: str | None = None) -> dict[str, Any]:
    """What the model reads of a result (issue 38 point 2): the structured content less what only restates
    what the answer says elsewhere or what is always so. The structured content keeps every field.

    - `success: true` (an error's text has `error`);
    - `sessionId` where the answer is about the only session there is (`lone_session`): which one is no news;
    - `state: paused` where a `reason` says the program stopped, and the `reason` where it is the stop the call
      `asked` for (`step` in a step's answer);
    - `output.truncated: false`;
    - `changes.since` where it is the previous cycle, as after every step and continue;
    - a scope named but not listed (`expensive`, no variables: a frame's `Globals`) is its name alone;
    - `location`'s `file`, `line` and `function` where they are the first frame's, written there.
    """
    lean = {key: value for key, value in payload.items() if not (key == "success" and value is True)
            and not (key == "sessionId" and lone_session)
            and not (key == "state" and value == "paused" and "reason" in payload)
            and not (key == "reason" and asked is not None and value == asked)}
    if isinstance(output := lean.get("output"), dict) and output.get("truncated") is False:
        lean["output"] = {key: value for key, value in output.items() if key != "truncated"}
    changes, cycle = lean.get("changes"), lean.get("cycle")
    if isinstance(changes, dict) and isinstance(cycle, int) and changes.get("since") == cycle - 1:
        lean["changes"] = {key: value for key, value in changes.items() if key != "since"}
    if isinstance(scopes := lean.get("scopes"), list):
        lean["scopes"] = [scope["name"] if isinstance(scope, dict) and scope.get("expensive") is True
                          and not scope.get("variables") and set(scope) <= {"name", "variables", "expensive"}
                          else scope for scope in scopes]
    location, frames = lean.get("location"), lean.get("frames")
    if isinstance(location, dict) and isinstance(frames, list) and frames and isinstance(frames[0], dict) \
            and all(location.get(key) == frames[0].get(key) for key in _PLACE):
        lean["location"] = {key: value for key, value in location.items() if key not in _PLACE}
        if not lean["location"]:
            del lean["location"]
    return lean


ANSWER_BYTES = 32 * 1024
"""The most text (UTF-8 bytes) one answer holds (issue 38 point 3): each tool that could answer more pages or
cuts its own answer to fit, saying how to read the rest (`nextOffset`, `framesNext`, `truncated`)."""


def text_bytes(payload: dict[str, Any]) -> int:
    """The size of the text the model reads for `payload` (with `success`, as `ok` sends it)."""
    return len(as_text({**payload, "success": True}).encode("utf-8"))


def most_that_fit(size_with: Any, most: int, room: int = ANSWER_BYTES) -> int:
    """The largest n <= `most` with `size_with(n) <= room` (0 where none fits): `size_with` grows with n."""
    if size_with(most) <= room:
        return most
    low, high = 0, most  # size_with(low) fits (or low is 0), size_with(high) does not
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if size_with(middle) <= room else (low, middle)
    return low


def _result(payload: dict[str, Any], *, is_error: bool = False) -> CallToolResult:
    # A lone surrogate (psutil reads a command line that is not UTF-8 with surrogate escapes) can be
    # written neither as TOON nor as the UTF-8 JSON of the wire: the whole answer failed with a JSON-RPC error.
    # Rare, so looked for in the text written (TOON refuses one; JSON keeps it) before the answer is cleaned.
    try:
        text = as_text(payload)
        clean = not has_lone_surrogate(text)
    except ValueError:
        clean = False
    if not clean:
        payload = valid_unicode(payload)
        text = as_text(payload)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=payload, is_error=is_error)


def ok(model: BaseModel, *, files_from: str | None = None, session_id: str | None = None) -> CallToolResult:
    """The success envelope, naming the session it is about (unless the model names it); a file below
    `files_from` is named relative to it (session/models.py)."""
    data = model.model_dump(mode="json", exclude_none=True, context={"base": files_from})
    if session_id is not None:
        data.setdefault("sessionId", session_id)
    return _result({**data, "success": True})


MESSAGE_CHARS = 8000
"""An error message quotes what it was given (a path, an expression): bounded like every other output."""


def failure(error: DebugError, session_id: str | None = None) -> CallToolResult:
    """The error envelope; `session_id`: the session the failed call was about, named beside the error as every
    answer names it."""
    message = error.message
    if len(message) > MESSAGE_CHARS:
        message = f"{message[:MESSAGE_CHARS]}… ({len(message) - MESSAGE_CHARS} more characters)"
    about = {"sessionId": session_id} if session_id is not None else {}
    return _result({"success": False, "error": {"code": error.code, "message": message}, **about}, is_error=True)


class SnapshotMeta(BaseModel):
    model_config = ConfigDict(json_schema_extra=lean_schema)

    id: str
    label: str
    timestamp: str
    threadId: Opt[int] = None
    frameIndex: int
    functionName: str
    variableCount: int
    depth: int
    cycle: int
    """The stop the snapshot was taken at (`@c<cycle>`)."""
    truncated: Opt[bool] = None
    """True when bounds cut the capture (children per variable, variables per snapshot)."""

    @classmethod
    def of(cls, snapshot: Snapshot) -> SnapshotMeta:
        return cls(**snapshot.metadata(), truncated=snapshot.truncated or None)  # type: ignore[arg-type]


class SnapshotResult(Ok):
    snapshot: SnapshotMeta
    warning: Opt[str] = None


class SnapshotDiffResult(Ok):
    diff: dict[str, Any]
    truncated: Opt[bool] = None
    """True when a list in `diff` was cut (the summary still counts them all)."""
    omitted: Opt[dict[str, int]] = None
    """How many entries of each list are left after this page."""
    nextOffset: Opt[int] = None
    """Where the next page starts: the `offset` of `snapshot_diff` that lists the entries left out."""
    warning: Opt[str] = None
    """Where the two snapshots cannot be compared whole (taken at different depths)."""


class SnapshotListResult(Ok):
    snapshots: list[SnapshotMeta]
    count: int
    stops: Opt[dict[str, int]] = None
    """The stop snapshots kept: `@c<first>` to `@c<last>`."""


class SnapshotDeleteResult(Ok):
    deleted: str
    remaining: int


class SnapshotExportResult(Ok):
    snapshotId: str
    data: Opt[str] = None
    """The canonical text, or a page of it from `offset`; left out when it went to `path`."""
    path: Opt[str] = None
    bytes: Opt[int] = None
    """The size of the file written to `path`, when `data` is left out."""
    sha256: Opt[str] = None
    offset: Opt[int] = None
    nextOffset: Opt[int] = None
    end: Opt[int] = None
    """The whole text's length in characters, when `data` is a page of it."""
    truncated: Opt[bool] = None
    """True when text remains after this page (ask again from `nextOffset`)."""
