"""Where a session keeps its snapshots: the ones agents saved, and one per stop.

Saved snapshots (created or imported) stay until deleted or the session ends, up to a hard
count and node budget. Stop snapshots are a ring of the most recent stops. Both are found by
`snap-<uuid>` id or by the stop addresses `@t0`, `@t-1` … and `@cN`.
"""

from __future__ import annotations

import re
import uuid
from collections import OrderedDict

from ..errors import DebugError, ErrorCode
from .model import Snapshot

SOFT_LIMIT = 100
HARD_LIMIT = 500
SAVED_NODE_BUDGET = 2_000_000
STOPS_KEPT = 100
STOP_NODE_BUDGET = 500_000

_RELATIVE = re.compile(r"^@t(0|-[1-9]\d*)$")
_DEFAULT_LABEL = re.compile(r"^snapshot-(\d+)$")
_ABSOLUTE = re.compile(r"^@c(\d+)$")


def new_id() -> str:
    return f"snap-{uuid.uuid4()}"


def not_found(ref: str, why: str = "") -> DebugError:
    return DebugError(ErrorCode.SNAPSHOT_NOT_FOUND, f"Snapshot '{ref}' not found. It may have been deleted or "
                                                    f"the session may have been disconnected.{why}")


class SnapshotStore:
    def __init__(self, carried: list[Snapshot] | None = None) -> None:
        self.saved: dict[str, Snapshot] = {s.id: s for s in carried or []}
        self.stops: OrderedDict[int, Snapshot] = OrderedDict()
        self._saved_nodes = sum(s.variable_count for s in self.saved.values())
        self._stop_nodes = 0
        self._labels = max([len(self.saved)] + [int(m.group(1)) for s in self.saved.values()
                                                if (m := _DEFAULT_LABEL.match(s.label))])
        self.current_cycle: int | None = None
        """The latest stop, whether or not its snapshot was recorded (or is still being recorded)."""

    # -- adding ------------------------------------------------------------------------------

    def next_label(self) -> str:
        return f"snapshot-{self._labels + 1}"

    def check_room(self, nodes: int = 0) -> None:
        if len(self.saved) >= HARD_LIMIT:
            raise DebugError(ErrorCode.SNAPSHOT_LIMIT, f"Snapshot count ({len(self.saved)}) has reached the hard "
                             "limit. Delete snapshots with snapshot_delete before creating more.")
        if self._saved_nodes + nodes > SAVED_NODE_BUDGET:
            raise DebugError(ErrorCode.SNAPSHOT_LIMIT, f"Saved snapshots would hold more than {SAVED_NODE_BUDGET:,} "
                             "variables. Delete snapshots with snapshot_delete before creating more.")

    def save(self, snapshot: Snapshot) -> str | None:
        """Keep a created or imported snapshot; returns the soft-limit warning when it applies."""
        self.check_room(snapshot.variable_count)
        self.saved[snapshot.id] = snapshot
        self._saved_nodes += snapshot.variable_count
        self._labels += 1
        if len(self.saved) >= SOFT_LIMIT:
            return (f"Snapshot count ({len(self.saved)}) has reached the soft limit. "
                    "Consider deleting old snapshots.")
        return None

    def record_stop(self, snapshot: Snapshot) -> None:
        old = self.stops.pop(snapshot.cycle, None)
        if old is not None:
            self._stop_nodes -= old.variable_count
        self.stops[snapshot.cycle] = snapshot
        self._stop_nodes += snapshot.variable_count
        self.current_cycle = max(self.current_cycle or 0, snapshot.cycle)
        while self.stops and (len(self.stops) > STOPS_KEPT or self._stop_nodes > STOP_NODE_BUDGET):
            _, evicted = self.stops.popitem(last=False)
            self._stop_nodes -= evicted.variable_count

    # -- finding -----------------------------------------------------------------------------

    def kept(self) -> dict[str, int] | None:
        """The stop snapshots kept: first and last cycle."""
        return {"first": next(iter(self.stops)), "last": next(reversed(self.stops))} if self.stops else None

    def stop(self, cycle: int) -> Snapshot | None:
        return self.stops.get(cycle)

    def get(self, ref: str) -> Snapshot:
        ref = ref.strip()
        if snapshot := self.saved.get(ref):
            return snapshot
        cycle = self._cycle_of(ref)
        if cycle is None:
            for snapshot in self.stops.values():
                if snapshot.id == ref:
                    return snapshot
            raise not_found(ref)
        if snapshot := self.stops.get(cycle):
            return snapshot
        raise not_found(ref, self._kept_text())

    def _cycle_of(self, ref: str) -> int | None:
        if match := _ABSOLUTE.match(ref):
            return int(match.group(1))
        if match := _RELATIVE.match(ref):
            current = self.current_cycle
            if current is None:
                raise not_found(ref, " The program has not stopped yet, so there is no stop snapshot.")
            return current + int(match.group(1))
        return None

    def _kept_text(self) -> str:
        if not self.stops:
            return " The program has not stopped yet, so there is no stop snapshot."
        kept = self.kept() or {}
        return f" Stop snapshots are kept for the last {STOPS_KEPT} stops (now @c{kept['first']} to @c{kept['last']})."

    # -- deleting ----------------------------------------------------------------------------

    def delete(self, ref: str | None) -> tuple[str, int]:
        """Delete one saved snapshot, or every one; returns (deleted, remaining).

        Stop snapshots are the record of the run (one per stop, seed 002), so they cannot be deleted.
        """
        if ref is None:
            self.saved.clear()
            self._saved_nodes = 0
            return "all", 0
        try:
            snapshot = self.get(ref)
        except DebugError:
            raise DebugError(ErrorCode.SNAPSHOT_NOT_FOUND, f"Snapshot '{ref}' not found.") from None
        if self.saved.pop(snapshot.id, None) is None:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"'{ref}' is the snapshot of stop @c{snapshot.cycle}; stop "
                             f"snapshots are the run's record and go by themselves after {STOPS_KEPT} stops")
        self._saved_nodes -= snapshot.variable_count
        return snapshot.id, len(self.saved)
