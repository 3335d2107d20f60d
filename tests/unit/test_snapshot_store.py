"""Unit tests for the snapshot store: stop references, eviction, limits, deleting, labels."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from dap2mcp.errors import DebugError, ErrorCode
from dap2mcp.snapshots import store as store_module
from dap2mcp.snapshots.model import (
    Snapshot,
)
from dap2mcp.snapshots.store import SnapshotStore

from snapshot_trees import T0, make, v

# -- the store -----------------------------------------------------------------------------------

def stop(cycle: int, nodes: int = 1) -> Snapshot:
    spec = {f"v{i}": v("int", str(cycle)) for i in range(nodes)}
    return make(spec, id=f"snap-stop-{cycle}", cycle=cycle, timestamp=T0 + timedelta(seconds=cycle), auto=True)


def saved(n: int) -> Snapshot:
    return make({"x": v("int", str(n))}, id=f"snap-saved-{n}", label=f"snapshot-{n}")


def not_found(ref: str) -> str:
    return f"Snapshot '{ref}' not found. It may have been deleted or the session may have been disconnected."


def test_stop_references_resolve_relative_absolute_and_by_id() -> None:
    store = SnapshotStore()
    for cycle in range(1, 6):
        store.record_stop(stop(cycle))
    assert store.get("@t0").cycle == 5
    assert store.get(" @t0 ").cycle == 5
    assert store.get("@t-1").cycle == 4
    assert store.get("@t-4").cycle == 1
    assert store.get("@c3").cycle == 3
    assert store.get("snap-stop-2").cycle == 2
    store.save(saved(1))
    assert store.get("snap-saved-1").id == "snap-saved-1"


def test_before_any_stop_relative_references_say_so() -> None:
    with pytest.raises(DebugError) as caught:
        SnapshotStore().get("@t0")
    assert caught.value.code == ErrorCode.SNAPSHOT_NOT_FOUND
    assert caught.value.message.startswith(not_found("@t0"))
    assert "has not stopped yet" in caught.value.message


@pytest.mark.parametrize("ref", ["snap-nope", "@t-5", "@c0", "@c99", "@t1", "@t-0", "t0", ""])
def test_unknown_references_are_not_found(ref: str) -> None:
    store = SnapshotStore()
    for cycle in range(1, 6):
        store.record_stop(stop(cycle))
    with pytest.raises(DebugError) as caught:
        store.get(ref)
    assert caught.value.code == ErrorCode.SNAPSHOT_NOT_FOUND
    assert caught.value.message.startswith(not_found(ref))


def test_stops_beyond_the_last_100_are_evicted_and_the_error_names_the_kept_range() -> None:
    store = SnapshotStore()
    for cycle in range(1, 106):
        store.record_stop(stop(cycle))
    assert len(store.stops) == 100
    assert store.get("@c6").cycle == 6
    assert store.get("@t-99").cycle == 6
    for ref in ("@c5", "@t-100", "snap-stop-1"):
        with pytest.raises(DebugError) as caught:
            store.get(ref)
        assert caught.value.code == ErrorCode.SNAPSHOT_NOT_FOUND
        assert caught.value.message.startswith(not_found(ref))
    with pytest.raises(DebugError) as caught:
        store.get("@c5")
    assert "last 100 stops (now @c6 to @c105)" in caught.value.message


def test_stop_ring_also_evicts_by_node_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "STOP_NODE_BUDGET", 10)
    store = SnapshotStore()
    for cycle in range(1, 5):
        store.record_stop(stop(cycle, nodes=4))
    assert list(store.stops) == [3, 4]
    store.record_stop(stop(4, nodes=4))  # the same cycle again replaces, it does not double count
    assert list(store.stops) == [3, 4]


def test_soft_limit_warns_from_the_100th_save_and_hard_limit_refuses_the_501st() -> None:
    store = SnapshotStore()
    warnings = [store.save(saved(n)) for n in range(1, 101)]
    assert warnings[:99] == [None] * 99
    assert warnings[99] == "Snapshot count (100) has reached the soft limit. Consider deleting old snapshots."
    for n in range(101, 501):
        store.save(saved(n))
    assert len(store.saved) == 500
    with pytest.raises(DebugError) as caught:
        store.save(saved(501))
    assert caught.value.code == ErrorCode.SNAPSHOT_LIMIT
    assert len(store.saved) == 500
    assert "snap-saved-501" not in store.saved
    store.delete("snap-saved-1")
    store.save(saved(501))
    assert len(store.saved) == 500


def test_saved_node_budget_is_a_limit_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "SAVED_NODE_BUDGET", 2)
    store = SnapshotStore()
    store.save(saved(1))
    store.save(saved(2))
    with pytest.raises(DebugError) as caught:
        store.save(saved(3))
    assert caught.value.code == ErrorCode.SNAPSHOT_LIMIT
    store.delete(None)
    store.save(saved(3))


def test_delete_one_all_and_unknown() -> None:
    store = SnapshotStore()
    for n in range(1, 4):
        store.save(saved(n))
    store.record_stop(stop(1))
    store.record_stop(stop(2))
    assert store.delete("snap-saved-2") == ("snap-saved-2", 2)
    with pytest.raises(DebugError) as caught:
        store.get("snap-saved-2")
    assert caught.value.message.startswith(not_found("snap-saved-2"))
    for ref in ("@t0", "@c1", "snap-stop-1"):  # stop snapshots are the run's record: one per stop, kept
        with pytest.raises(DebugError) as caught:
            store.delete(ref)
        assert caught.value.code == ErrorCode.INVALID_ARGUMENT
    assert store.get("@t0").cycle == 2 and store.get("@t-1").cycle == 1
    for ref in ("snap-saved-2", "@c3", "bogus"):
        with pytest.raises(DebugError) as caught:
            store.delete(ref)
        assert caught.value.code == ErrorCode.SNAPSHOT_NOT_FOUND
        assert caught.value.message == f"Snapshot '{ref}' not found."
    assert store.delete(None) == ("all", 0)
    assert store.saved == {}
    assert store.get("@t0").cycle == 2  # deleting all saved snapshots keeps the stop snapshots


def test_store_labels_count_on_from_carried_snapshots() -> None:
    store = SnapshotStore([saved(1), saved(2)])
    assert store.next_label() == "snapshot-3"
    store.save(saved(3))
    assert store.next_label() == "snapshot-4"
    assert store.get("snap-saved-1").id == "snap-saved-1"


def test_timestamps_with_offsets_keep_their_offset_in_metadata() -> None:
    moment = datetime(2024, 1, 2, 3, 4, 5, 6000, tzinfo=timezone(timedelta(hours=5, minutes=30)))
    assert make({}, timestamp=moment).metadata()["timestamp"] == "2024-01-02T03:04:05.006+05:30"
