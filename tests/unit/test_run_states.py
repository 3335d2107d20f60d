"""The run state of a session through each adapter's transcript, quirks included: the real `DebugSession`,
`Run` and `Stops`, with a transcript of the real adapter played back in its place (see scripted_adapter.py;
tests/transcripts/ holds the transcripts, recorded by these tests with DAP2MCP_RECORD_TRANSCRIPTS=1).

The state while the program runs is read from the requests the session sent (`Sent.seen`: its state and
stop count as it sent each), the state at a stop from the session once the stop is in.
"""

from __future__ import annotations

from scripted_adapter import scripted_session

from dap2mcp.session.models import StopInfo
from dap2mcp.session.session import DebugSession

from conftest import PROGRAMS, marker

BOUND = 60.0
"""A hang guard, far above anything normal: a played transcript takes milliseconds, a recording seconds."""


async def stopped(session: DebugSession, since: int) -> StopInfo:
    """The stop after stop number `since`."""
    assert await session.wait_for_stop(since, BOUND), "no stop within the hang guard"
    assert session.state == "paused" and session.stop_count == since + 1, (session.state, session.stop_count)
    assert session.stop_info is not None
    return session.stop_info


def adapter_ids(session: DebugSession) -> dict[int, int | None]:
    """The adapter's id of each of the agent's breakpoints, by line."""
    return {bp.line or 0: bp.adapter_id for bp in session.breakpoints.all()}


# -- lldb-dap ------------------------------------------------------------------------------------


async def test_lldb_a_next_cut_short_by_a_breakpoint_is_stepped_past_at_the_next_continue(monkeypatch, tmp_path):
    """lldb-dap keeps the step plan of a `next` that a breakpoint interrupted, and at the next `continue`
    finishes it, as a stop with reason `step` nobody asked for: the session continues past it, so the
    `continue` ends at the next breakpoint, as it would in any other adapter."""
    program = PROGRAMS / "calls.c"
    call, leaf = marker(program, "call"), marker(program, "leaf")
    async with scripted_session("lldb-stray-step", "lldb", program, monkeypatch, tmp_path) as run:
        s = run.session
        await s.start([{"file": str(program), "line": call}, {"file": str(program), "line": leaf}])
        ids = adapter_ids(s)
        at_call = await stopped(s, 0)
        assert (at_call.reason, at_call.hit_breakpoint_ids) == ("breakpoint", [ids[call]])

        since = await s.step("over", s.thread(None))
        cut_short = await stopped(s, since)  # the `next` over middle() stops in leaf()
        assert (cut_short.reason, cut_short.hit_breakpoint_ids) == ("breakpoint", [ids[leaf]])
        assert cut_short.thread_id == at_call.thread_id

        await s.remove_breakpoints(s.breakpoints.take([bp.id for bp in s.breakpoints.all() if bp.line == leaf]))
        since = await s.resume(None)
        again = await stopped(s, since)  # not the step's stop back in top(): the next loop's breakpoint
        assert (again.reason, again.hit_breakpoint_ids, s.stop_count) == ("breakpoint", [ids[call]], 3)
        continues = run.requests("continue")
        assert [c.seen for c in continues] == [("running", 2), ("running", 2)]  # the second: past the stray stop
        assert continues[1].arguments["threadId"] == at_call.thread_id
