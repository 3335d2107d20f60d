"""Canonical JSON for snapshots: the same state always gives the same bytes, and back again.

Canonical means sorted keys, fixed separators, UTF-8 text and children in canonical sibling
order. The snapshot's id is not part of the data (an import gets a new one), so exporting an
imported snapshot reproduces the original bytes. Import trusts nothing: every node is rebuilt
from its fields and must reproduce the recorded id and content hash.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .model import SPEC_VERSION, Node, Snapshot, child_path, format_timestamp, roots_in_order

MAX_IMPORT_BYTES = 64 * 1024 * 1024


class SnapshotDataError(ValueError):
    """The text is not a snapshot this version can import; the message says why."""


def _node_json(node: Node) -> dict[str, Any]:
    out: dict[str, Any] = {"id": node.id, "name": node.name, "type": node.type, "value": node.value,
                           "hash": node.hash, "children": [_node_json(c) for c in node.children]}
    if node.flags:
        out["flags"] = list(node.flags)
    return out


def export(snapshot: Snapshot) -> str:
    meta = snapshot.metadata()
    del meta["id"], meta["cycle"]
    if snapshot.truncated:
        meta["truncated"] = True
    document = {
        "spec_version": SPEC_VERSION,
        "cycle": snapshot.cycle,
        "snapshot": meta,
        "root": {"id": "root", "hash": _root_hash(snapshot.roots),
                 "children": [_node_json(n) for n in snapshot.roots]},
    }
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _root_hash(roots: tuple[Node, ...]) -> str:
    return Node.build("", "root", "", "", roots).hash


# -- import ------------------------------------------------------------------------------------

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _NodeData(_Strict):
    id: str
    name: str
    type: str
    value: str
    hash: str
    flags: list[str] = Field(default_factory=list)
    children: list[_NodeData]


class _Meta(_Strict):
    label: str
    timestamp: str
    threadId: int | None
    frameIndex: int = Field(ge=0)
    functionName: str
    variableCount: int = Field(ge=0)
    depth: int = Field(ge=0)
    truncated: bool = False


class _Root(_Strict):
    id: str
    hash: str
    children: list[_NodeData]


class _Document(_Strict):
    spec_version: str
    cycle: int = Field(ge=0)
    snapshot: _Meta
    root: _Root


def parse(text: str, new_id: str, max_nodes: int) -> Snapshot:
    """Rebuild a snapshot from exported text, or raise `SnapshotDataError` and build nothing."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_IMPORT_BYTES:
        raise SnapshotDataError(f"snapshot data is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MiB")
    try:
        document = _Document.model_validate(json.loads(text))
    except json.JSONDecodeError as exc:
        raise SnapshotDataError(f"snapshot data is not JSON: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        parts = [str(p) for p in first["loc"]]
        if len(parts) > 8:  # a deeply nested location would repeat `children.0` hundreds of times
            parts = [*parts[:3], f"…({len(parts) - 6} more)…", *parts[-3:]]
        where = ".".join(parts) or "document"
        raise SnapshotDataError(f"snapshot data is malformed at {where}: {first['msg']}") from None
    except RecursionError:
        raise SnapshotDataError("snapshot data is nested too deeply") from None
    if document.spec_version != SPEC_VERSION:
        raise SnapshotDataError(f"unsupported spec_version {document.spec_version!r} (expected {SPEC_VERSION!r})")
    meta = document.snapshot
    try:
        timestamp = datetime.fromisoformat(meta.timestamp)
    except ValueError:
        raise SnapshotDataError(f"snapshot timestamp {meta.timestamp!r} is not ISO 8601") from None
    if timestamp.tzinfo is None or format_timestamp(timestamp) != meta.timestamp:
        raise SnapshotDataError(f"snapshot timestamp {meta.timestamp!r} is not in canonical form")
    budget = [max_nodes]
    try:
        roots = roots_in_order([_rebuild("", n, budget) for n in document.root.children])
    except RecursionError:
        raise SnapshotDataError("snapshot data is nested too deeply") from None
    if _root_hash(roots) != document.root.hash or document.root.id != "root":
        raise SnapshotDataError("the snapshot's root hash does not match its content (changed after export)")
    snapshot = Snapshot(id=new_id, label=meta.label, timestamp=timestamp, thread_id=meta.threadId,
                        frame_index=meta.frameIndex, function_name=meta.functionName, depth=meta.depth,
                        cycle=document.cycle, roots=roots, truncated=meta.truncated)
    if snapshot.variable_count != meta.variableCount:
        raise SnapshotDataError(f"variableCount says {meta.variableCount} but the data holds "
                                f"{snapshot.variable_count} nodes")
    return snapshot


def _rebuild(parent: str, data: _NodeData, budget: list[int]) -> Node:
    budget[0] -= 1
    if budget[0] < 0:
        raise SnapshotDataError("snapshot data holds more nodes than a snapshot may")
    path = child_path(parent, data.name)
    children = [_rebuild(path, child, budget) for child in data.children]
    node = Node.build(parent, data.name, data.type, data.value, children, data.flags)
    if node.id != data.id:
        raise SnapshotDataError(f"node {data.id!r} is not at the path its name gives ({node.id!r})")
    if node.hash != data.hash:
        raise SnapshotDataError(f"node {data.id!r} does not match its content hash (changed after export)")
    return node

