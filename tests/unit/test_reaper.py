"""The orphan guard's list for a session follows what runs below the adapter (the guard process itself
is exercised end to end in tests/e2e/test_stdio.py)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from dap2mcp import reaper


async def test_the_guard_is_told_what_started_what_ended_and_a_reused_pid(monkeypatch) -> None:
    sent: list[str] = []
    monkeypatch.setattr(reaper, "_send", sent.append)
    monkeypatch.setattr(reaper, "GUARD_EVERY", 0.01)
    session = SimpleNamespace(closed=False)
    guarded = {1: "100", 2: "200"}  # as handed over at the end of the handshake
    scans = [{1: "100", 2: "200"},  # nothing new
             {1: "100", 3: "300"},  # 2 ended, the program started 3
             {1: "100", 3: "350"},  # 3 ended and its pid went to a new process
             {4: "400"}]  # the session ends while this look is under way: it is not acted on
    adapter = object()

    def launched(looked_at: object) -> dict[int, str]:
        assert looked_at is adapter
        if len(scans) == 1:
            session.closed = True
        return scans.pop(0)

    monkeypatch.setattr(reaper, "launched", launched)
    await asyncio.wait_for(reaper.keep_guarding(adapter, guarded, lambda: not session.closed), 10)  # type: ignore[arg-type]  # a hang guard: two scans, milliseconds
    assert sent == ["- 2\n", "+ 3 300\n", "- 3\n", "+ 3 350\n"]
    assert guarded == {1: "100", 3: "350"}
