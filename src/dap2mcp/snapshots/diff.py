"""What changed between two snapshots, in the two shapes agents ask for.

`compare` walks both trees once, matching nodes by id. A subtree whose content hash is the same
on both sides is skipped whole, so a diff costs time in proportion to what changed, not to the
size of the state. The two shapes (seed 000's variables, the PACT ids-and-fields) are views of
the one `Delta`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .model import HEADER_FIELDS, Node, Snapshot, comparable, format_delta, sibling_key


@dataclass
class Delta:
    added: list[Node] = field(default_factory=list)
    """In the newer snapshot's canonical order."""
    removed: list[Node] = field(default_factory=list)
    changed: list[tuple[Node, Node, list[str]]] = field(default_factory=list)
    """(old, new, changed fields) in the newer snapshot's canonical order."""
    unchanged: int = 0
    """Nodes present on both sides with equal content (subtrees included)."""


def compare(old: Snapshot, new: Snapshot) -> Delta:
    """Within one run values compare exactly; across runs (or with an imported snapshot) the
    addresses in object descriptions are masked, since every object sits elsewhere in a new run."""
    same_run = old.run is not None and old.run == new.run
    delta = Delta()
    _merge(old.roots, new.roots, delta, (lambda v: v) if same_run else comparable)
    return delta


def _merge(old_children: tuple[Node, ...], new_children: tuple[Node, ...], delta: Delta,
           shown: Callable[[str], str]) -> bool:
    """Compare two sibling lists into `delta`; True if anything under them differs."""
    old_by_id = {n.id: n for n in old_children}
    seen: set[str] = set()
    differs = False
    for new in new_children:
        seen.add(new.id)
        old = old_by_id.get(new.id)
        if old is None:
            delta.added.extend(new.walk())
            differs = True
        elif old.hash == new.hash and old.name == new.name:
            delta.unchanged += new.size
        else:
            fields = [f for f in HEADER_FIELDS if
                      (shown(old.value) != shown(new.value) if f == "value" else getattr(old, f) != getattr(new, f))]
            delta.changed.append((old, new, fields))  # before its descendants: pre-order
            if _merge(old.children, new.children, delta, shown):
                fields.append("children")
            if fields:
                differs = True
            else:  # only masked addresses differ, here and below: nothing of this node was appended after it
                delta.changed.pop()
                delta.unchanged += 1
    for old in old_children:
        if old.id not in seen:
            delta.removed.extend(old.walk())
            differs = True
    return differs


def moves(delta: Delta) -> list[dict[str, str]]:
    """Content that left one path and appeared at another: unique hash matches, outermost only."""
    # A named plain value that changed in place did not move (counters that all went up would pair
    # up); a list item that changed in place may have (items shift when one before them goes).
    sources = delta.removed + [old for old, _, fields in delta.changed if fields != ["children"] and _movable(old)]
    targets = delta.added + [new for _, new, fields in delta.changed if fields != ["children"] and _movable(new)]
    source_counts = Counter(n.hash for n in sources)
    target_by_hash = {n.hash: n for n in targets}
    target_counts = Counter(n.hash for n in targets)
    found: list[dict[str, str]] = []
    for node in sources:
        if source_counts[node.hash] != 1 or target_counts[node.hash] != 1:
            continue
        target = target_by_hash[node.hash]
        if target.id != node.id:
            found.append({"from": node.id, "to": target.id})
    # removed nodes come before changed ones in `sources`, so an outer move may be found after its inner ones
    moved_from = {m["from"] for m in found}
    return [m for m in found if not any(outer in moved_from for outer in _ancestors(m["from"]))]


def _movable(node: Node) -> bool:
    return bool(node.children) or sibling_key(node.name)[0] == 0


def _ancestors(path: str) -> list[str]:
    """The paths above `path` (`a.b[2]` → `a`, `a.b`); a cut inside a quoted key names nothing real."""
    return [path[:i] for i, char in enumerate(path) if i and char in ".["]


def pact(delta: Delta) -> dict[str, Any]:
    """Seed 002's diff: exactly `added`, `removed`, `changed` (plus `moved` when inferred)."""
    out: dict[str, Any] = {
        "added": [n.id for n in delta.added],
        "removed": [n.id for n in delta.removed],
        "changed": [{"id": new.id, "fields": fields} for _, new, fields in delta.changed],
    }
    if found := moves(delta):
        out["moved"] = found
    return out


def variables(old: Snapshot, new: Snapshot, delta: Delta) -> dict[str, Any]:
    """Seed 000's diff: variables added, removed and modified, with values, and a summary."""
    modified = [(o, n) for o, n, fields in delta.changed if set(fields) - {"children"}]
    out: dict[str, Any] = {
        "snapshotIdA": old.id,
        "snapshotIdB": new.id,
        "threadMismatch": old.thread_id != new.thread_id,
        "timeDelta": format_delta((new.timestamp - old.timestamp).total_seconds()),
        "summary": {
            "added": len(delta.added),
            "removed": len(delta.removed),
            "modified": len(modified),
            "unchanged": delta.unchanged + len(delta.changed) - len(modified),
        },
        "added": [_entry(n) for n in delta.added],
        "removed": [_entry(n) for n in delta.removed],
        "modified": [_modified(o, n) for o, n in modified],
    }
    return out


def _entry(node: Node) -> dict[str, str]:
    return {"name": node.name, "path": node.id, "type": node.type, "value": node.value}


def _modified(old: Node, new: Node) -> dict[str, str]:
    entry = {"name": new.name, "path": new.id, "type": new.type, "oldValue": old.value, "newValue": new.value}
    if old.type != new.type:
        entry["oldType"] = old.type
    return entry


def depth_warning(old: Snapshot, new: Snapshot) -> str | None:
    """Snapshots of different depths: what only the deeper one recorded is not a change of the program."""
    if old.depth == new.depth:
        return None
    shown = "removed" if old.depth > new.depth else "added"
    return (f"the snapshots were taken at depths {old.depth} and {new.depth}: what lies below depth "
            f"{min(old.depth, new.depth)} was recorded in one of them only and shows as {shown}, not as compared; "
            "compare snapshots of one depth")


def bounded(body: dict[str, Any], entries: int, chars: float = float("inf")) -> tuple[dict[str, Any], dict[str, int]]:
    """`body` with its lists cut to `entries` entries each and to about `chars` characters of JSON
    between them (taken in order: what was added, then removed, then changed), and how many
    entries of each list were left out. A capture bounds each value (`CaptureLimits.value_chars`),
    so one entry is never far above its share; the summary still counts everything."""
    omitted: dict[str, int] = {}
    spent = 0
    for key, value in body.items():
        if not isinstance(value, list):
            continue
        kept = 0
        for item in value[:entries]:
            spent += len(json.dumps(item, separators=(",", ":"), ensure_ascii=False)) + 1
            if spent > chars:
                break
            kept += 1
        if kept < len(value):
            omitted[key] = len(value) - kept
            body[key] = value[:kept]
    return body, omitted
