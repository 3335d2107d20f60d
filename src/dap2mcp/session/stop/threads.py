"""Every thread of the program and where it is (`info {type: "threads"}`), including the threads the debugger
cannot stop: a thread blocked inside a call into native code (a lock's acquire, a sleep, a read) never reaches
the point where pydevd suspends threads, so a `pause` of a deadlock stops nothing, and the adapter has no
variables for it. Where the profile reads threads from outside the adapter (`AdapterProfile.running_threads`),
such a thread's stack is shown as the process read it, marked so; elsewhere the adapter's `threads` and
`stackTrace` answer at a stop, and nothing can be said while the program runs."""

from __future__ import annotations

import asyncio
import ipaddress
import os
import socket

from ...adapters.thread_states import ThreadReport
from ...dap import AdapterRefused, bodies
from ...errors import DebugError, ErrorCode
from ..models import Context, Location, StackLine, Thread, ThreadStack
from ..session import DebugSession
from .inspect import to_frame
from .paused import held

THREADS_LISTED = 200
"""The most threads `info {type: "threads"}` lists (the first ones, with the total)."""
THREAD_FRAMES = 10
"""Frames of each thread `info {type: "threads"}` shows unless told (`maxFrames`)."""


async def listing(session: DebugSession, max_frames: int) -> tuple[list[ThreadStack], int]:
    """Every thread (up to `THREADS_LISTED`) with its `max_frames` innermost frames, and how many there are."""
    if session.state == "terminated":
        raise DebugError(ErrorCode.TERMINATED, session.ended_text())
    reports = await from_outside(session, max_frames)
    if session.state == "paused":
        return await _at_stop(session, max_frames, reports)
    if reports is None:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{session.profile.name} lists no thread's stack while the "
                         "program runs: `pause` it, then ask again")
    return [shown(report) for report in reports[:THREADS_LISTED]], len(reports)


async def from_outside(session: DebugSession, max_frames: int) -> list[ThreadReport] | None:
    """The program's threads as the process itself reads them, where the profile can make it say (None
    elsewhere). Only a process on this machine: a `connect` to an adapter elsewhere names a pid of there."""
    pid = session.run.process.get("systemProcessId")
    if not isinstance(pid, int) or (session.target.address is not None and not _loopback(session.target.address[0])):
        return None
    return await asyncio.to_thread(session.profile.running_threads, pid, max_frames)


async def not_held(session: DebugSession, thread_id: int, max_frames: int) -> ThreadStack | None:
    """Thread `thread_id`'s stack as the process reads it, where the debugger does not hold that thread (at a
    stop, a thread blocked inside a native call; while the program runs, any); None where it holds it, or
    the profile cannot read threads from outside."""
    if session.state == "paused":
        info = session.require_paused()
        if thread_id == info.thread_id or await held(session, thread_id) is not False:
            return None
    elif session.state != "running":
        return None
    reports = await from_outside(session, max_frames)
    if reports is None:
        return None
    found = next((r for r in reports if r.dap_id == thread_id), None)
    if found is None and session.state == "running":
        known = [str(r.dap_id) for r in reports if r.dap_id is not None]
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"unknown threadId {thread_id}; the program's threads: "
                         f"{', '.join(known[:20]) or 'none'}")
    return shown(found) if found is not None and found.state != "stopped" else None


def thread_context(session: DebugSession, stack: ThreadStack) -> Context:
    """The context of a thread the debugger does not hold: its stack as the process read it, no variables."""
    what = f"blocked inside a call into native code, waiting for {stack.waitingIn or 'something'}," \
        if stack.state == "blocked" else "running"
    ctx = Context(state=session.state, threadId=stack.id, thread=stack, sessionId=session.id, parentId=session.parent_id,
                  description=f"thread {stack.id} ({stack.name}) is {what} where {session.profile.name} cannot stop "
                  "it: its stack as the process itself read it, without frame ids or variables")
    if session.state == "paused":
        ctx.cycle = session.stop_count
    return ctx


async def all_blocked(session: DebugSession) -> list[ThreadReport] | None:
    """The program's threads, where each is blocked inside a native call for good (a pause can stop none of
    them); None where one is not, or its call ends by itself (a server's `select` with a timeout, in library code
    that debugpy with justMyCode stops in only once told: `DebugSession.pause_in_library`), or the profile cannot
    tell."""
    reports = await from_outside(session, THREAD_FRAMES)
    if not reports or session.state != "running" or any(r.state != "blocked" or r.timed for r in reports):
        return None
    return reports


def say_blocked(session: DebugSession, ctx: Context, reports: list[ThreadReport]) -> None:
    """A pause that stopped nothing, said as such: every thread blocked, and where each is."""
    ctx.description = (f"{session.profile.name} could stop no thread: each of the {len(reports)} is blocked inside "
                       "a call into native code (a lock's acquire, a sleep, a read), where it cannot be suspended; "
                       "the pause stays asked for and takes effect where one of those calls returns")
    ctx.threads = [Thread(id=r.dap_id, name=r.name, at=_where(session, r)) for r in reports if r.dap_id is not None]
    ctx.hint = ("`info {type: \"threads\"}` shows each thread's stack and what it waits for (two threads each "
                "waiting for a lock the other holds are a deadlock, which never ends by itself), `context "
                "{threadId}` one thread's; `wait` takes the stop should a call return")


def shown(report: ThreadReport) -> ThreadStack:
    return ThreadStack(id=report.dap_id, name=report.name, state=report.state, waitingIn=report.waiting_in,
                       frames=[StackLine(function=f.function, file=f.file, line=f.line, code=f.code)
                               for f in report.frames],
                       totalFrames=report.total_frames, readFromProcess=True)


async def _at_stop(session: DebugSession, max_frames: int,
                   reports: list[ThreadReport] | None) -> tuple[list[ThreadStack], int]:
    """At a stop: each thread the debugger holds as it shows it (frame ids valid at this stop), each other
    as the process read it."""
    listed = (await session.request("threads")).threads
    outside = {r.dap_id: r for r in reports or () if r.dap_id is not None}

    async def one(thread: bodies.Thread) -> ThreadStack:
        report = outside.get(thread.id)
        if report is not None and report.state != "stopped":
            return shown(report)
        return await _from_adapter(session, thread, max_frames, known=reports is not None)

    stacks = list(await asyncio.gather(*(one(t) for t in listed[:THREADS_LISTED])))
    return stacks, len(listed)


async def _from_adapter(session: DebugSession, thread: bodies.Thread, max_frames: int, *, known: bool) -> ThreadStack:
    """A thread as the adapter shows it at a stop; `known`: the process said it is held (else it is taken to
    be where the adapter stops all threads together)."""
    tid = thread.id
    try:
        body = await session.request("stackTrace", {"threadId": tid, "startFrame": 0, "levels": max_frames})
        raw, total = body.stackFrames, body.totalFrames
    except AdapterRefused:  # a thread that ended meanwhile
        raw, total = [], None
    frames = [to_frame(frame) for frame in raw]
    session.run.frames_handed_out(tid, ((f.id, index) for index, f in enumerate(frames)))
    return ThreadStack(id=tid, name=thread.name,
                       state="stopped" if known or session.profile.stops.stops_every_thread else None,
                       frames=[StackLine(id=f.id, function=f.function, file=f.file, line=f.line) for f in frames],
                       totalFrames=total if isinstance(total, int) and total >= len(frames) else None)


def _where(session: DebugSession, report: ThreadReport) -> Location | None:
    """The thread's first frame in the program's own files (below its directory), else its innermost: the main
    thread of a deadlock waits inside `threading`'s `join`, called from the program's line that matters."""
    below = session.target.files_from.rstrip(os.sep) + os.sep
    place = next((f for f in report.frames if (f.file or "").startswith(below)), report.frames[0] if report.frames else None)
    return Location(file=place.file, line=place.line, function=place.function) if place is not None else None


def _loopback(host: str) -> bool:
    """Whether `host` names this machine."""
    try:
        return ipaddress.ip_address(socket.gethostbyname(host)).is_loopback
    except (OSError, ValueError):
        return False
