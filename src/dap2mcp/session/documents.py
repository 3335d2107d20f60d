"""The live session as JSON documents, in seed 004's shapes adapted to DAP: what the server serves as its
resources. Each is built from the session as it is now, except the threads, read at most once per stop
and served from then on, marked `stale`, while the program runs.
"""

from __future__ import annotations

import asyncio
import os
import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote

from ..errors import Failure
from ..snapshots.model import format_timestamp
from .session import DebugSession

THREADS_LISTED = 50


def source(session: DebugSession, path: str) -> str:
    """`{+file}` leaves `%XX` as it is, so a path with a literal `%` arrives undecoded: take the path
    as given if the adapter referenced it that way, and the percent-decoded one otherwise."""
    base = session.target.files_from  # a relative path, as results name files, is read from there
    return session.sources.read(*(os.path.join(base, spelling) for spelling in (path, unquote(path))))


def _location(session: DebugSession) -> dict[str, Any] | None:
    view = session.recorder.last_view
    frame = view.focus if view is not None and session.state == "paused" else None
    if frame is None:
        return None
    return {"file": frame.file, "line": frame.line, "column": frame.column, "functionName": frame.function,
            "moduleName": None}


def _session(session: DebugSession) -> dict[str, Any]:
    target, info = session.target, session.stop_info
    return {
        "processId": session.run.process.get("systemProcessId") or target.process_id,
        "processName": session.run.process.get("name") or target.module or target.path,
        "executablePath": target.program or (target.absolute(target.path) if target.path else target.module),
        "runtimeVersion": session.runtime,
        "interpreter": target.interpreter.path if target.interpreter is not None and target.launched else None,
        "state": session.state.capitalize(),
        "launchMode": "Launch" if session.launched else "Attach",
        "attachedAt": format_timestamp(session.started_at),
        "pauseReason": info.reason.capitalize() if info is not None and session.state == "paused" else None,
        "currentLocation": _location(session),
        "activeThreadId": info.thread_id if info is not None and session.state == "paused" else None,
        "commandLineArgs": list(target.args),
        "workingDirectory": target.files_from if session.launched else target.cwd,  # where the launch ran it
    }


def _breakpoints(session: DebugSession) -> dict[str, Any]:
    listed, exceptions = [], []
    for bp in session.breakpoints.all():
        if bp.temporary:
            continue
        options = bp.options
        if bp.kind == "exception":
            exceptions.append({
                "id": bp.id, "filter": bp.exception, "exceptionType": ", ".join(options.exceptionTypes or ()) or None,
                "breakOnFirstChance": bp.exception == "raised", "breakOnSecondChance": bp.exception != "raised",
                "includeSubtypes": True, "enabled": options.enabled, "verified": bp.verified, "hitCount": bp.hit_count,
            })
            continue
        every = re.fullmatch(r"\s*%\s*(\d+)\s*", options.hitCondition or "")
        listed.append({
            "id": bp.id, "type": "Tracepoint" if options.logMessage else ("FunctionBreakpoint" if bp.function
                                                                        else "Breakpoint"),
            "file": bp.file, "line": bp.actual_line or bp.line, "column": None, "function": bp.function,
            "enabled": options.enabled, "verified": bp.verified, "state": bp.state.capitalize(), "hitCount": bp.hit_count,
            "condition": options.condition, "hitCondition": options.hitCondition, "logMessage": options.logMessage,
            "hitCountMultiple": int(every.group(1)) if every else 0, "maxNotifications": options.maxNotifications or 0,
            "notificationsSent": bp.notifications_sent,
        })
        if bp.kind == "watch":  # a data breakpoint: what it watches, for which access, and its last value
            listed[-1].update(type="DataBreakpoint", watch=bp.watch, access=bp.access, value=bp.value)
    for name in session.breakpoints.default_filters():
        exceptions.append({"id": None, "filter": name, "exceptionType": None, "default": True,
                           "breakOnFirstChance": name == "raised", "breakOnSecondChance": name != "raised",
                           "includeSubtypes": True, "enabled": True, "verified": True, "hitCount": 0})
    return {"breakpoints": listed, "exceptionBreakpoints": exceptions}


class ThreadList:
    """The threads as of the last stop they were read at: one per session, which the debugger keeps."""

    def __init__(self) -> None:
        self.cache: dict[str, Any] | None = None

    async def now(self, session: DebugSession) -> dict[str, Any] | None:
        if session.state == "paused" and (self.cache is None or self.cache["cycle"] != session.stop_count):
            self.cache = await _capture_threads(session)
        return self.cache


async def threads(session: DebugSession, listed: ThreadList) -> dict[str, Any]:
    cache = await listed.now(session)
    if cache is None:
        return {"threads": [], "stale": True, "capturedAt": None}
    fresh = session.state == "paused" and cache["cycle"] == session.stop_count
    more = {key: cache[key] for key in ("threadsTotal", "truncated") if key in cache}
    return {"threads": cache["threads"], **more, "stale": not fresh, "capturedAt": cache["capturedAt"]}


async def _capture_threads(session: DebugSession) -> dict[str, Any]:
    every = (await session.request("threads")).threads
    listed = every[:THREADS_LISTED]
    current = session.stop_info.thread_id if session.stop_info else None

    async def top(thread_id: int) -> dict[str, Any] | None:
        try:
            frames = await session.stack(thread_id)
        except Failure:
            return None
        if not frames:
            return None
        frame, source = frames[0], frames[0].source
        return {"file": (source.path or source.name) if source is not None else None, "line": frame.line,
                "column": frame.column or None, "functionName": frame.name, "moduleName": None}

    locations = await asyncio.gather(*(top(t.id) for t in listed))
    threads = [{"id": t.id, "name": t.name, "state": "Suspended", "isCurrent": t.id == current,
                "location": where} for t, where in zip(listed, locations, strict=True)]
    more = {"threadsTotal": len(every), "truncated": True} if len(every) > len(listed) else {}  # `context` pages them
    return {"threads": threads, **more, "cycle": session.stop_count, "capturedAt": format_timestamp(datetime.now(UTC))}


def _snapshots(session: DebugSession) -> dict[str, Any]:
    store = session.recorder.store
    saved = [s.metadata() for s in store.saved.values()]
    return {"snapshots": saved, "count": len(saved), "stops": store.kept()}


def _output(session: DebugSession) -> dict[str, Any]:
    limit = session.limits.output_chars
    end = session.output.size
    page = session.output.page(max(0, end - limit), limit)
    return {"text": page["text"], "offset": page["offset"], "end": end}


BUILDERS = {"session": _session, "breakpoints": _breakpoints, "snapshots": _snapshots, "output": _output}
"""The documents built from the session alone; `threads` asks the adapter (see `threads`)."""
FINGERPRINTS = {
    "session": _session,
    "breakpoints": _breakpoints,
    "threads": lambda session: (session.stop_count, session.state == "paused"),
    "snapshots": lambda session: (tuple(session.recorder.store.saved), session.recorder.store.kept()),
    "output": lambda session: session.output.size,
}
"""A cheap stand-in for each document's content, asking the adapter nothing: when it differs from the last
one compared, the document changed."""

