"""A connection to an adapter is let go of once, however many callers ask at the same moment.

debugpy's adapter dies of a second `disconnect` on one connection (it answers on the stream the first one
closed), taking every session of the program with it. In CI a pool's worker ended while its session was still
being configured: the end let go of the adapter, the configuration's own clean-up asked again, and the
program's first session ended without its exit code. That moment cannot be had on demand, so the two asks are
made together here, on a real worker's session under real debugpy."""

from __future__ import annotations

import asyncio

from dap2mcp.adapters import Target
from dap2mcp.session import Debugger
from dap2mcp.session.breakpoints.specs import BreakpointSpec

from conftest import PROGRAMS, marker

POOL = PROGRAMS / "pool.py"


async def test_two_asks_to_let_go_of_a_childs_connection_leave_the_program_debugged():
    debugger = Debugger()
    try:
        stop = await debugger.debug(Target(mode="source", path=str(POOL), args=["spawn"]), adapter=None,
                                    breakpoints=[BreakpointSpec(file=str(POOL), line=marker(POOL, "worker"))],
                                    timeout=60)
        worker = debugger.pick(stop.sessionId)
        first = debugger.pick("s1")
        assert worker.parent_id == "s1" and stop.state == "paused", stop
        await debugger.handle("s1").clear_breakpoints(None, None, True)
        await asyncio.gather(worker.link.disconnect(False, 3), worker.link.disconnect(False, 3))
        await asyncio.sleep(0.5)  # a dead adapter's connections close at once
        assert first.link.connected, first.link.close_reason
        end = await debugger.handle("s1").wait(60)
        while end.state != "terminated" or end.sessionId != "s1":  # another worker may have stopped meanwhile
            end = await (debugger.handle(end.sessionId).continue_(None, None, 60) if end.state == "paused"
                         else debugger.handle("s1").wait(60))
        assert end.exitCode == 0, end
        assert "total 14" in first.output.read(0, 10_000).text
    finally:
        await debugger.close()
