"""What changed between two snapshots, in the two shapes agents ask for.

`compare` walks both trees once, matching nodes by id. A subtree whose content hash is the same
on both sides is skipped whole, so a diff costs time in proportion to what changed, not to the
size of the state. The two shapes (seed 000's variables, the PACT ids-and-fields) are views of
the one `Delta`: PACT lists every node whose content differs, as seed 002 asks; the variables view
lists each change once, where it happened (the element that changed, not also the list and the dict
whose text shows it; a new or gone subtree at its root).
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
    """The roots of the subtrees only the newer snapshot holds, in its canonical order."""
    removed: list[Node] = field(default_factory=list)
    """The roots of the subtrees only the older snapshot holds."""
    changed: list[tuple[Node, Node, list[str]]] = field(default_factory=list)
    """(old, new, changed fields) in the newer snapshot's canonical order."""
    unchanged: int = 0
    """Nodes present on both sides with equal content (subtrees included)."""


def compare(old: Snapshot, new: Snapshot, under: str | None = None) -> Delta:
    """Within one run values compare exactly; across runs (or with an imported snapshot) the
    addresses in object descriptions are masked, since every object sits elsewhere in a new run.
    `under`: only the node at that path and its subtree (`order` holds `order.items[0]`, not `orders`)."""
    same_run = old.run is not None and old.run == new.run
    delta = Delta()
    _merge(_at(old, under), _at(new, under), delta, (lambda v: v) if same_run else comparable)
    return delta


def _at(snapshot: Snapshot, under: str | None) -> tuple[Node, ...]:
    """The roots compared: the snapshot's, or the one node at path `under` (none if it holds no such path)."""
    if under is None:
        return snapshot.roots
    node = snapshot.nodes.get(under)
    return (node,) if node is not None else ()




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
            delta.added.append(new)
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
            delta.removed.append(old)
            differs = True
    return differs


def moves(delta: Delta) -> list[dict[str, str]]:
    """Content that left one path and appeared at another: unique hash matches, outermost only."""
    # A named plain value that changed in place did not move (counters that all went up would pair
    # up); a list item that changed in place may have (items shift when one before them goes).
    sources = _every(delta.removed) + [old for old, _, fields in delta.changed if fields != ["children"] and _movable(old)]
    targets = _every(delta.added) + [new for _, new, fields in delta.changed if fields != ["children"] and _movable(new)]
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


def _every(roots: list[Node]) -> list[Node]:
    """The nodes of the subtrees at `roots`, each in canonical pre-order."""
    return [node for root in roots for node in root.walk()]


def _movable(node: Node) -> bool:
    return bool(node.children) or sibling_key(node.name)[0] == 0


def _ancestors(path: str) -> list[str]:
    """The paths above `path` (`a.b[2]` → `a`, `a.b`); a cut inside a quoted key names nothing real."""
    return [path[:i] for i, char in enumerate(path) if i and char in ".["]


def pact(delta: Delta) -> dict[str, Any]:
    """Seed 002's diff: exactly `added`, `removed`, `changed` (plus `moved` when inferred), every node by id."""
    out: dict[str, Any] = {
        "added": [n.id for n in _every(delta.added)],
        "removed": [n.id for n in _every(delta.removed)],
        "changed": [{"id": new.id, "fields": fields} for _, new, fields in delta.changed],
    }
    if found := moves(delta):
        out["moved"] = found
    return out


def variables(old: Snapshot, new: Snapshot, delta: Delta) -> dict[str, Any]:
    """Seed 000's diff: variables added, removed and modified, with values, and a summary; one entry for each
    change (`own_change`), a new or gone subtree at its root."""
    modified = [(o, n) for o, n, fields in delta.changed if own_change(o, n, fields)]
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


def own_change(old: Node, new: Node, fields: list[str]) -> bool:
    """Whether a changed node changed itself, and not only through its children: a list's or a dict's text
    (`[1, 2]`, `{'k': [1, 2]}`) shows its items, so when an item changed, the item is the change, not also
    every container above it. A text that differs in more than an object's address, beside children that
    differ, is taken to show them; an address alone (another object, within one run) is a change of its own."""
    own = set(fields) - {"children"}
    if "children" in fields and "value" in own and comparable(old.value) != comparable(new.value):
        own.discard("value")
    return bool(own)


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


def absent_warning(old: Snapshot, new: Snapshot, under: str | None) -> str | None:
    """A path to narrow to that neither snapshot holds: an empty diff that says nothing of the program."""
    if under is None or under in old.nodes or under in new.nodes:
        return None
    top = ", ".join(n.id for n in new.roots[:5]) or "nothing"
    return (f"neither snapshot holds `{under}`, so nothing is compared: name a path as a diff writes it "
            f"(`order.items[0]`, `prices[\"tea\"]`; the newer snapshot's top level: {top}), within the snapshots' "
            f"depth ({old.depth} and {new.depth})")


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


def page(body: dict[str, Any], entries: int, chars: float, start: int = 0) -> tuple[dict[str, Any], dict[str, int], int | None]:
    """One page of `body`'s lists read as one sequence (what was added, then removed, then changed), from its
    entry `start`: at most `entries` entries and about `chars` characters of their JSON (at least one entry).
    Returns the page, how many entries of each list are left after it, and where the next page starts (None
    at the end). The summary still counts everything."""
    omitted: dict[str, int] = {}
    spent, taken, position, next_at = 0, 0, 0, None
    for key, value in body.items():
        if not isinstance(value, list):
            continue
        first = min(max(start - position, 0), len(value))
        kept: list[Any] = []
        if next_at is None:
            for item in value[first:]:
                cost = len(json.dumps(item, separators=(",", ":"), ensure_ascii=False)) + 1
                if taken >= entries or (taken and spent + cost > chars):
                    break
                spent, taken = spent + cost, taken + 1
                kept.append(item)
        if left := len(value) - first - len(kept):
            omitted[key] = left
            if next_at is None:
                next_at = position + first + len(kept)
        body[key] = kept
        position += len(value)
    return body, omitted, next_at
