"""`continue` after a step that has not landed resumes every thread, on real debugpy (issue 23 point 4)."""

from __future__ import annotations

import contextlib
import dataclasses

from dap2mcp.adapters import Target
from dap2mcp.errors import Failure
from dap2mcp.session import Debugger
from dap2mcp.session.breakpoints.specs import BreakpointSpec

from conftest import PROGRAMS, marker

POOL = PROGRAMS / "pool_wait.py"


async def test_continue_gives_up_a_step_the_blocked_thread_never_took_and_runs_every_thread():
    debugger = Debugger()
    try:
        ctx = await debugger.debug(Target(mode="source", path=str(POOL)), adapter=None, timeout=30,
                                   breakpoints=[BreakpointSpec(file=str(POOL), line=marker(POOL, "job")),
                                                BreakpointSpec(file=str(POOL), line=marker(POOL, "report"))])
        assert ctx.state == "paused" and ctx.location is not None and ctx.location.function == "checksum"
        session = debugger.pick()
        # as with an adapter that cannot tell whether a thread can take a step: the step is sent
        session.profile = dataclasses.replace(session.profile, stops=dataclasses.replace(session.profile.stops, step_ready_check=None))
        threads = (await debugger.handle().context(None, None, 20)).threads or []
        main = next(t.id for t in threads if t.name == "MainThread")
        held = await debugger.handle().step("over", main, timeout=1)
        assert held.state == "running"  # the main thread is in future.result(): it takes the step only later
        with contextlib.suppress(Failure):  # the stop at `report` may be gone before it is read (below)
            await debugger.handle().continue_(None, None, timeout=20)
        with contextlib.suppress(Failure):
            await debugger.handle().wait(20)  # where the given-up step took it on from there
        # every thread ran: the job finished and the main thread got its result. pydevd still holds the given-up
        # step for the main thread and carries it out at that thread's next stop, so it runs on from there
        assert session.state != "running" and session.stop_count > 1
        assert "checksum 105" in debugger.handle().output(0, 10_000)["text"]
    finally:
        await debugger.close()
