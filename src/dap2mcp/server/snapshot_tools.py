"""The snapshot tools of seed 000, plus export and import; names and fields as the seed gives them."""

from __future__ import annotations

import copy
from typing import Annotated, Any, Literal

from mcp.types import CallToolResult
from pydantic import Field

from ..session.breakpoints.specs import PATH_CHARS
from ..session.handle import SessionHandle
from ..snapshots import diff
from . import results as r
from .binding import tool

DIFF_ENTRIES = 1000
DIFF_CHARS = 24_000
"""About how much of `snapshot_diff`'s lists one page holds (JSON characters; less where its text would pass
`ANSWER_BYTES`); `omitted` counts the rest and `nextOffset` reads on."""
EXPORT_CHARS = 24_000
"""The most of an exported snapshot's text one answer holds (fewer characters where their text would pass
`ANSWER_BYTES`: quotes are escaped); a larger one is paged or written to `path`."""

# Free-text parameters are typed plain `str` (empty = absent): the SDK turns a JSON-looking string
# into an object before validation unless the annotation is exactly `str`, and exported data is JSON.

_REFS = "a snapshot id or a stop (`@t0` the latest, `@t-1`, `@cN`)"


def _ref(role: str) -> Any:
    return Annotated[str, Field(min_length=1, max_length=200, description=f"{role}: {_REFS}.")]



@tool("snapshot_create", "Create State Snapshot")
async def snapshot_create(
    calls: SessionHandle,
    label: Annotated[str, Field(max_length=200, description="Human-readable label (default 'snapshot-N').")] = "",
    thread_id: Annotated[int | None, Field(description="Thread to capture (default: the thread that stopped).")] = None,
    frame_index: Annotated[int, Field(ge=0, le=10_000, description="Stack frame index (0 = top of stack).")] = 0,
    depth: Annotated[int, Field(ge=0, le=10, description="Levels of nested objects to expand (0 = top level only).")] = 0,
) -> Annotated[CallToolResult, r.SnapshotResult]:
    """Capture a paused frame's locals and arguments as a named snapshot (each stop is one too,
    `@cN`)."""
    snapshot, warning = await calls.snapshot_create(label or None, thread_id, frame_index, depth)
    return r.ok(r.SnapshotResult(snapshot=r.SnapshotMeta.of(snapshot), warning=warning), session_id=calls.id)


@tool("snapshot_diff", "Compare Two Snapshots", read_only=True, idempotent=True)
async def snapshot_diff(
    calls: SessionHandle,
    snapshot_id_1: _ref("Baseline"),
    snapshot_id_2: _ref("Compared"),
    format: Annotated[Literal["variables", "pact"], Field(description=(
        "'variables': old/new values, a summary; 'pact': ids added, removed, changed, moved."))] = "variables",
    path_prefix: Annotated[str, Field(max_length=PATH_CHARS, description=(
        "Only this path and below (`order`: not `orders`)."))] = "",
    offset: Annotated[int, Field(ge=0, description=(
        "The first entry listed (`nextOffset` of an earlier answer).")) ] = 0,
) -> Annotated[CallToolResult, r.SnapshotDiffResult]:
    """Compare two snapshots (of one session or two): variables added, removed, modified, by paths
    like `order.items[3]`. Pages by `offset`: `nextOffset`."""
    whole, warning = await calls.snapshot_diff(snapshot_id_1, snapshot_id_2, format, path_prefix or None)
    chars = DIFF_CHARS
    while True:  # a page of values full of quotes or non-ASCII characters takes more text than characters
        body, omitted, next_at = diff.page(copy.copy(whole), DIFF_ENTRIES, chars, offset)
        answer = r.SnapshotDiffResult(diff=body, truncated=bool(omitted) or None, omitted=omitted or None,
                                      nextOffset=next_at, warning=warning, sessionId=calls.id)
        if chars < 1000 or r.text_bytes(answer.model_dump(mode="json", exclude_none=True)) <= r.ANSWER_BYTES:
            return r.ok(answer, session_id=calls.id)
        chars //= 2


@tool("snapshot_list", "List Snapshots", read_only=True, idempotent=True)
async def snapshot_list(calls: SessionHandle) -> Annotated[CallToolResult, r.SnapshotListResult]:
    """List the session's snapshots (metadata) and which stops are kept."""
    saved, stops = await calls.snapshot_list()
    snapshots = [r.SnapshotMeta.of(s) for s in saved]
    return r.ok(r.SnapshotListResult(snapshots=snapshots, count=len(snapshots), stops=stops), session_id=calls.id)


@tool("snapshot_delete", "Delete Snapshot(s)", destructive=True)
async def snapshot_delete(
    calls: SessionHandle,
    snapshot_id: Annotated[str | None, Field(max_length=200, description="Default: all.")] = None,
) -> Annotated[CallToolResult, r.SnapshotDeleteResult]:
    """Delete a snapshot by its id, or all of the session's snapshots."""
    deleted, remaining = await calls.snapshot_delete(snapshot_id)
    return r.ok(r.SnapshotDeleteResult(deleted=deleted, remaining=remaining), session_id=calls.id)


@tool("snapshot_export", "Export Snapshot", destructive=True, idempotent=True)
async def snapshot_export(
    calls: SessionHandle,
    snapshot_id: _ref("To export"),
    path: Annotated[str, Field(max_length=PATH_CHARS, description=(
        "Write it to this file instead (answering `bytes`, `sha256`)."))] = "",
    offset: Annotated[int, Field(ge=0, description=(
        "Character to answer `data` from (`nextOffset`)."))] = 0,
) -> Annotated[CallToolResult, r.SnapshotExportResult]:
    """Serialize a snapshot as canonical JSON, a baseline for a later run (`snapshot_import`): `data`
    in pages of 24,000 characters by `offset`, or to `path`."""
    exported = {**await calls.snapshot_export(snapshot_id, path or None, offset, EXPORT_CHARS),
                "sessionId": calls.id}
    if "data" in exported:
        data, begin = exported["data"], exported.get("offset", 0)
        paged = {"offset": begin, "end": exported.get("end", begin + len(data)), "truncated": True}
        kept = r.most_that_fit(lambda n: r.text_bytes({**exported, **paged, "data": data[:n],
                                                       "nextOffset": begin + n}), len(data))
        if kept < len(data):  # escaped quotes and non-ASCII characters take more than a byte of text each
            exported.update(paged, data=data[:kept], nextOffset=begin + kept)
    return r.ok(r.SnapshotExportResult(**exported), session_id=calls.id)


@tool("snapshot_import", "Import Snapshot")
async def snapshot_import(
    calls: SessionHandle,
    data: Annotated[str, Field(description="Exported snapshot text.")] = "",
    path: Annotated[str, Field(max_length=PATH_CHARS, description="File holding exported snapshot text.")] = "",
) -> Annotated[CallToolResult, r.SnapshotResult]:
    """Load an exported snapshot (`data` or `path`) under a new id, to diff against the live program."""
    snapshot, warning = await calls.snapshot_import(data or None, path or None)
    return r.ok(r.SnapshotResult(snapshot=r.SnapshotMeta.of(snapshot), warning=warning), session_id=calls.id)


TOOLS = (snapshot_create, snapshot_diff, snapshot_list, snapshot_delete, snapshot_export, snapshot_import)
"""The snapshot tools in the order tools/list gives them, after the others."""
