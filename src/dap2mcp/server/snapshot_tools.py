"""The snapshot tools of seed 000, plus export and import; names and fields as the seed gives them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult
from pydantic import Field

from ..session.debugger import Debugger
from . import results as r
from .tools import PATH_CHARS, SessionId, tool_decorator

DIFF_ENTRIES = 1000
DIFF_CHARS = 50_000
"""About how much of `snapshot_diff`'s lists an answer holds (JSON characters); `omitted` counts the rest."""
EXPORT_CHARS = 50_000
"""The most of an exported snapshot's text one answer holds; a larger one is paged or written to `path`."""

# Free-text parameters are typed plain `str` (empty = absent): the SDK turns a JSON-looking string
# into an object before validation unless the annotation is exactly `str`, and exported data is JSON.

_REFS = "a snapshot id (`snap-…`), or a stop: `@t0` (the latest), `@t-1` (the one before), `@cN` (stop N)"


def _ref(role: str) -> Any:
    return Annotated[str, Field(min_length=1, max_length=200, description=f"{role}: {_REFS}.")]


def register_snapshot_tools(tools: list[Tool], debugger: Debugger) -> None:
    def tool(name: str, title: str, **hints: bool) -> Any:
        return tool_decorator(tools, name, title, **hints)

    @tool("snapshot_create", "Create State Snapshot")
    async def snapshot_create(
        label: Annotated[str, Field(max_length=200, description="Human-readable label (default 'snapshot-N').")] = "",
        thread_id: Annotated[int | None, Field(description="Thread to capture (default: the thread that stopped).")] = None,
        frame_index: Annotated[int, Field(ge=0, le=10_000, description="Stack frame index (0 = top of stack).")] = 0,
        depth: Annotated[int, Field(ge=0, le=10, description="Levels of nested objects to expand (0 = top level only).")] = 0,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.SnapshotResult]:
        """Capture the current debug state (locals and arguments of a frame) as a named snapshot.
        Must be called while the process is paused. Every stop is also recorded automatically as `@cN`."""
        sid = debugger.resolve(sessionId)
        snapshot, warning = await debugger.snapshot_create(label or None, thread_id, frame_index, depth, sid)
        return r.ok(r.SnapshotResult(snapshot=r.SnapshotMeta.of(snapshot), warning=warning), session_id=sid)

    @tool("snapshot_diff", "Compare Two Snapshots", read_only=True, idempotent=True)
    async def snapshot_diff(
        snapshot_id_1: _ref("First snapshot (baseline)"),
        snapshot_id_2: _ref("Second snapshot (comparison)"),
        format: Annotated[Literal["variables", "pact"], Field(description=(
            "'variables': added/removed/modified variables with before/after values and a summary; "
            "'pact': {added: [ids], removed: [ids], changed: [{id, fields}]} plus inferred moves."))] = "variables",
        path_prefix: Annotated[str, Field(max_length=PATH_CHARS, description=(
            "Only what lies at this path or below it, by whole steps: `order` gives `order` and "
            "`order.items[0]`, not `orders`. Written as the diff writes paths."))] = "",
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.SnapshotDiffResult]:
        """Compare two snapshots and return structured differences (added, removed, modified variables with
        before/after values), one entry for each change: the element that changed, not also the containers
        holding it; a subtree added or removed at its root. Paths name nested values: `order.customer.city`,
        `items[3]`, `prices["tea"]`. Snapshot ids are unique across sessions: one session's snapshot can be
        compared with another's (the broken and the fixed version at the same breakpoint); `@t`/`@c` addresses
        are `sessionId`'s stops."""
        sid = debugger.resolve(sessionId)
        body, omitted, warning = await debugger.snapshot_diff(snapshot_id_1, snapshot_id_2, format,
                                                              DIFF_ENTRIES, DIFF_CHARS, sid, path_prefix or None)
        return r.ok(r.SnapshotDiffResult(diff=body, truncated=bool(omitted) or None, omitted=omitted or None,
                                         warning=warning), session_id=sid)

    @tool("snapshot_list", "List Snapshots", read_only=True, idempotent=True)
    async def snapshot_list(sessionId: SessionId = None) -> Annotated[CallToolResult, r.SnapshotListResult]:
        """List all snapshots in the current debug session with their metadata, and which stops are kept."""
        sid = debugger.resolve(sessionId)
        saved, stops = await debugger.snapshot_list(sid)
        snapshots = [r.SnapshotMeta.of(s) for s in saved]
        return r.ok(r.SnapshotListResult(snapshots=snapshots, count=len(snapshots), stops=stops), session_id=sid)

    @tool("snapshot_delete", "Delete Snapshot(s)", destructive=True)
    async def snapshot_delete(
        snapshot_id: Annotated[str | None, Field(max_length=200, description="Snapshot to delete. If omitted, deletes all snapshots.")] = None,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.SnapshotDeleteResult]:
        """Delete a specific snapshot by ID, or clear all snapshots if no ID is provided."""
        sid = debugger.resolve(sessionId)
        deleted, remaining = await debugger.snapshot_delete(snapshot_id, sid)
        return r.ok(r.SnapshotDeleteResult(deleted=deleted, remaining=remaining), session_id=sid)

    @tool("snapshot_export", "Export Snapshot", destructive=True, idempotent=True)
    async def snapshot_export(
        snapshot_id: _ref("Snapshot to export"),
        path: Annotated[str, Field(max_length=PATH_CHARS, description=(
            "Write the data to this file (overwritten) instead of answering it: the answer is then the file's "
            "`bytes` and `sha256`."))] = "",
        offset: Annotated[int, Field(ge=0, description=(
            "Character offset to answer `data` from, for a snapshot too large for one answer (then `nextOffset` "
            "and `end` are given): join the pages for `snapshot_import`."))] = 0,
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.SnapshotExportResult]:
        """Serialize a snapshot as canonical JSON (the same state always gives the same bytes), to keep it as a
        baseline for a later run; `snapshot_import` reads it back. At most 50,000 characters of `data`
        per answer: give `path` for a larger one, or read it in pages by `offset`."""
        sid = debugger.resolve(sessionId)
        exported = await debugger.snapshot_export(snapshot_id, path or None, offset, EXPORT_CHARS, sid)
        return r.ok(r.SnapshotExportResult(**exported), session_id=sid)

    @tool("snapshot_import", "Import Snapshot")
    async def snapshot_import(
        data: Annotated[str, Field(description="Exported snapshot text.")] = "",
        path: Annotated[str, Field(max_length=PATH_CHARS, description="File holding exported snapshot text.")] = "",
        sessionId: SessionId = None,
    ) -> Annotated[CallToolResult, r.SnapshotResult]:
        """Load an exported snapshot (give data or path) under a new id, e.g. a baseline from an earlier run to
        diff against the live program. Tampered or malformed data is refused whole."""
        sid = debugger.resolve(sessionId)
        snapshot, warning = await debugger.snapshot_import(data or None, path or None, sid)
        return r.ok(r.SnapshotResult(snapshot=r.SnapshotMeta.of(snapshot), warning=warning), session_id=sid)
