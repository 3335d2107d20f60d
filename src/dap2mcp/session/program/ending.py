"""`stop` with a signal: the program is asked to end, as a terminal's Ctrl-C or a service manager would, and
gets the chance to run its signal handlers, `finally` blocks and exit handlers before it is ended."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from typing import TYPE_CHECKING

from ...errors import DebugError, ErrorCode, Failure
from ...processes import killing_signal
from . import children

if TYPE_CHECKING:
    from ..session import DebugSession


async def let_end(session: DebugSession, signal_name: str, limit: float) -> str:
    """Send the signal to the program and let it run (past any stop: a breakpoint in its handler, the adapter
    reporting the signal) until it ends or `limit` seconds pass. Returns what happened, in words."""
    starter = children.launcher_of(session)  # js-debug's program is attached to by the session that launched it
    if starter.target.mode in ("attach", "connect") or not starter.launched:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "the program was not launched by this session: `stop` detaches "
                         "from it and leaves it running; signal it yourself if it should end")
    if session.state == "terminated":
        return "the program had already ended"
    pids = session.processes.pids()
    if not pids:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{session.profile.name} does not say which process runs the "
                         "program; `stop` without signal ends it at once")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    since = session.stop_count
    if not session.held():  # an evaluation stuck in the program: the adapter would answer nothing in time
        # within half the time given: an adapter slow to answer must not keep the signal from being sent
        with contextlib.suppress(asyncio.TimeoutError):
            since = await asyncio.wait_for(_run_free(session), max(0.1, limit / 2))
    session.run.signalling(signal.Signals[signal_name].value)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.Signals[signal_name])
    while session.state != "terminated" and (left := deadline - loop.time()) > 0:
        await session.wait_for_stop(since, left)
        if session.state == "paused":  # on the way out: the adapter reporting the signal, a `breakpoint()` call
            with contextlib.suppress(Failure):  # it ended meanwhile
                since = await session.resume(None)
    if session.state == "terminated":
        await session.ended()  # its last output (what the handlers printed) is still on its way
        return f"the program ended after {signal_name}{_other_cause(session.exit_code, signal_name)}"
    return f"the program had not ended {limit:g}s after {signal_name}; it was ended"


def _other_cause(code: int | None, sent: str) -> str:
    """What ended the program, where its exit code says a signal other than the one sent did (the program
    ignored or handled it, and crashed or aborted on its own)."""
    other = killing_signal(code) if code is not None else None
    if other is None or other.name == sent:
        return ""
    return f", but not by it: it was killed by {other.name} (exit code {code}, as a shell reports it)"


async def _run_free(session: DebugSession) -> int:
    """No more stops, and the program running: returns the stop count to wait beyond."""
    await _no_more_stops(session)
    if session.state == "paused":  # a paused program would take the signal inside the debugger's own wait
        with contextlib.suppress(Failure):
            return await session.resume(None)
    return session.stop_count


async def _no_more_stops(session: DebugSession) -> None:
    """Take every breakpoint and exception filter out of the adapter: the session ends anyway, and the program
    should run its way out, not stop in its handlers."""
    with contextlib.suppress(Failure):
        await session.remove_breakpoints(session.breakpoints.take_all() + session.breakpoints.take_stand_ins())
        if session.capabilities.get("exceptionBreakpointFilters"):
            await session.tolerant_request("setExceptionBreakpoints", {"filters": []})
