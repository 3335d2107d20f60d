"""What the adapter's events do to a session: its state, its stops, the program's output, and the
breakpoint and tracepoint notices an agent is sent.

The DAP client calls `on_event` for every event, on the event loop and without awaiting: whatever
takes a request (completing a stop the adapter described only in part, silencing a tracepoint that
has said enough) is started as a task of its own.
"""

from __future__ import annotations

import asyncio
import re
import signal
from typing import TYPE_CHECKING, Any

from ..processes import killed_by
from .models import StopInfo

if TYPE_CHECKING:
    from .breakpoints import Breakpoint
    from .session import DebugSession


def on_event(session: DebugSession, event: str, body: dict[str, Any]) -> None:
    if event == "initialized":
        session.initialized.set()
    elif event == "stopped":
        if session.state == "terminated" or session.quirks.stray_step(body):
            return  # gdb stops once more after it has reported the program's end
        if session.has_client and session.quirks.incomplete(body):
            asyncio.ensure_future(session.quirks.complete(body, then=lambda done: stopped(session, done)))
            return
        stopped(session, body)
    elif event == "continued":
        if session.state == "paused":
            session.state = "running"
    elif event == "exited":
        code = body.get("exitCode")
        signum = last_signal(session)
        # lldb gives a program killed by a signal the signal's number as its status (11 for SIGSEGV), which
        # reads as exit(11): the last stop was that signal, so say it as a shell does, 128 + the number
        session.exit_code = killed_by(code) if signum is not None and signum[1] == code else code
        if session.signalled is not None and code in (-session.signalled, 256 - session.signalled):
            session.exit_code = killed_by(session.signalled)  # debugpy: the status as Python has it, or its byte
    elif event in ("terminated", "_closed"):
        session.ended_by_adapter()
    elif event == "output":
        _output(session, str(body.get("category", "console")), str(body.get("output", "")))
    elif event == "process":
        session.process = dict(body)
    elif event == "breakpoint":
        session.breakpoints.on_event(body)
        session.sources.note_event(event, body)
    elif event in ("loadedSource", "module"):
        session.sources.note_event(event, body)
        return
    elif event == "capabilities":
        session.capabilities.update(body.get("capabilities") or {})
    else:
        return
    session.notify()


def stopped(session: DebugSession, body: dict[str, Any]) -> None:
    reason, description = session.quirks.reason(body)
    if (caught := session.breakpoints.caught_by(body.get("hitBreakpointIds") or [])) is not None:
        reason, description = "exception", caught.label  # the message is read from the output, with the context
    previous = session.stop_info
    info = session.stop_info = StopInfo(
        reason=reason,
        thread_id=body.get("threadId") or (previous.thread_id if previous else None),
        description=description,
        hit_breakpoint_ids=list(body.get("hitBreakpointIds") or []),
    )
    session.quirks.on_stop(info)
    session.state = "paused"
    session.stop_count += 1
    session.known_frames.clear()
    session.recorder.on_stop(session.stop_count, info.thread_id, info.reason)
    for bp in session.breakpoints.count_stop(info.hit_breakpoint_ids):
        session.notice({"event": "breakpoint", "breakpointId": bp.id, "hitCount": bp.hit_count,
                        "cycle": session.stop_count})


def program_output(session: DebugSession, category: str, text: str) -> None:
    """Output the adapter forwards outside DAP (Delve's debuggee writes to Delve's own stdout)."""
    text, own = session.profile.own_lines(text)
    session.output.append(category, text)
    _adapter_said(session, category, own)
    session.notify()


_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def _adapter_said(session: DebugSession, category: str, text: str) -> None:
    """The adapter's own words, kept apart from the program's output (colour codes dropped: no terminal shows them)."""
    session.adapter_output.append(category, _COLOUR.sub("", text))


def _output(session: DebugSession, category: str, raw: str) -> None:
    profile = session.profile
    text = profile.shown_output(category, raw, session.state == "starting", session.target.mode == "connect")
    tracepoint, text = session.breakpoints.take_tracepoint(text)
    if category in ("stdout", "stderr"):
        text = session.tracebacks.cut(text)
    if tracepoint is not None or profile.programs(category, session.target.mode == "connect"):
        session.output.append(category, text)
    else:
        _adapter_said(session, category, text)
    session.recent_output = (session.recent_output + raw)[-400:]  # the adapter may split a line across events
    if (code := profile.exit_code(session.recent_output)) is None:
        pass
    elif session.exit_code is None:
        if session.program_runs():  # the program printed what its end would look like
            session.recent_output = ""
        else:
            session.exit_code = code
            if profile.exit_in_output_ends:  # nothing else will say the program is gone
                session.ended_by_adapter()
                session.notify()
    elif profile.exit_in_output_ends and session.state == "terminated":
        session.exit_code = code  # the program's own copy, flushed at its exit, came first; the adapter's last
    if tracepoint is not None:
        _traced(session, tracepoint, text)
    if session.state == "starting" and any(m in text for m in profile.start_failure_markers):
        session.start_failed.set()


def _traced(session: DebugSession, bp: Breakpoint, text: str) -> None:
    session.notice({"event": "tracepoint", "breakpointId": bp.id,
                    "message": text.rstrip("\n")[: session.limits.value_chars * 4],
                    "hitCount": bp.hit_count, "notificationsSent": bp.notifications_sent})
    if bp.exhausted and session.has_client:  # it has said enough
        asyncio.ensure_future(session.breakpoints.sync(session.tolerant_request, [bp]))


def last_signal(session: DebugSession) -> tuple[str, int] | None:
    """The signal the program last stopped on (name and number), if its last stop was one."""
    info = session.stop_info
    found = re.match(r"signal (SIG[A-Z0-9]+)", info.description or "") if info is not None else None
    try:
        return (found.group(1), signal.Signals[found.group(1)].value) if found else None
    except KeyError:
        return None
