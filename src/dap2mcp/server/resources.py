"""MCP resources: the live debug session as JSON documents, in seed 004's shapes adapted to DAP.

They exist while a session does (the list is empty otherwise). Each read builds its document
from the session as it is now; threads are fetched at most once per stop and served from that
cache, marked `stale`, while the program runs. Source files are served through the
`debugger://source/{+file}` template, only those the debug adapter has referenced.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote

from mcp.shared.exceptions import MCPError
from mcp.types import INTERNAL_ERROR, INVALID_PARAMS, Resource, ResourceTemplate

from ..errors import DebugError, ErrorCode
from ..session.debugger import Debugger
from ..session.session import DebugSession
from ..snapshots.model import format_timestamp

MIME = "application/json"
THREADS_LISTED = 50
SOURCE_PREFIX = "debugger://source/"
SOURCE_REFUSED = -1
"""Seed 004's JSON-RPC code for a source file refused (not referenced, or gone from disk)."""
SOURCE = ResourceTemplate(uri_template=SOURCE_PREFIX + "{+file}", name="Source File", mime_type="text/plain",
                          description="A source file the debug adapter has referenced (stack frames, loaded sources, "
                                      "verified breakpoints); other files are refused")


@dataclass(frozen=True)
class Listed:
    uri: str
    name: str
    description: str


LISTED = (
    Listed("debugger://session", "Debug Session", "The debugged process: state, location, how it was started"),
    Listed("debugger://breakpoints", "Breakpoints", "All breakpoints, tracepoints and exception breakpoints"),
    Listed("debugger://threads", "Threads", "Threads of the debugged process, as of the last stop"),
    Listed("debugger://snapshots", "Snapshots", "Saved snapshots of program state, and the stops recorded"),
    Listed("debugger://output", "Output", "The program's output so far (the last 8,000 characters)"),
)


def listing(debugger: Debugger) -> list[Resource]:
    if not debugger.has_session:
        return []
    return [Resource(uri=item.uri, name=item.name, description=item.description, mime_type=MIME) for item in LISTED]


def templates(debugger: Debugger) -> list[ResourceTemplate]:
    return [SOURCE] if debugger.has_session else []


async def read(debugger: Debugger, uri: str) -> tuple[str, str]:
    """The resource's text and MIME type. Failures are JSON-RPC errors whose `data` names the code."""
    try:
        if uri.startswith(SOURCE_PREFIX):
            return _source(debugger.session, uri.removeprefix(SOURCE_PREFIX)), "text/plain"
        if uri == "debugger://threads":
            document = await _threads(debugger.session)
        elif (build := _BUILDERS.get(uri)) is not None:
            document = build(debugger.session)
        else:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"Unknown resource: {uri}")
    except DebugError as exc:
        if uri.startswith(SOURCE_PREFIX) and exc.code in (ErrorCode.INVALID_ARGUMENT, ErrorCode.FILE_NOT_FOUND):
            code = SOURCE_REFUSED
        elif exc.code in (ErrorCode.INTERNAL, ErrorCode.ADAPTER_FAILED, ErrorCode.TIMEOUT):
            code = INTERNAL_ERROR
        else:
            code = INVALID_PARAMS
        raise MCPError(code, exc.message, {"uri": uri, "code": exc.code}) from exc
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False), MIME


def _source(session: DebugSession, path: str) -> str:
    """`{+file}` leaves `%XX` as it is, so a path with a literal `%` arrives undecoded: take the path
    as given if the adapter referenced it that way, and the percent-decoded one otherwise."""
    base = session.target.files_from  # a relative path, as results name files, is read from there
    return session.sources.read(*(os.path.join(base, spelling) for spelling in (path, unquote(path))))


def fingerprint(debugger: Debugger, uri: str) -> object:
    """A cheap stand-in for the resource's content, without asking the adapter anything: when it
    differs from the last one compared, subscribers are told the resource was updated."""
    take = _FINGERPRINTS.get(uri)
    return take(debugger.session) if take is not None and debugger.has_session else None


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
        "processId": session.process.get("systemProcessId") or target.process_id,
        "processName": session.process.get("name") or target.module or target.path,
        "executablePath": target.program or target.path or target.module,
        "runtimeVersion": session.runtime,
        "state": session.state.capitalize(),
        "launchMode": "Launch" if session.launched else "Attach",
        "attachedAt": format_timestamp(session.started_at),
        "pauseReason": info.reason.capitalize() if info is not None and session.state == "paused" else None,
        "currentLocation": _location(session),
        "activeThreadId": info.thread_id if info is not None and session.state == "paused" else None,
        "commandLineArgs": list(target.args),
        "workingDirectory": target.cwd,
    }


def _breakpoints(session: DebugSession) -> dict[str, Any]:
    listed, exceptions = [], []
    for bp in session.breakpoints.all():
        if bp.temporary:
            continue
        if bp.kind == "exception":
            exceptions.append({
                "id": bp.id, "filter": bp.exception, "exceptionType": ", ".join(bp.exception_types) or None,
                "breakOnFirstChance": bp.exception == "raised", "breakOnSecondChance": bp.exception != "raised",
                "includeSubtypes": True, "enabled": bp.enabled, "verified": bp.verified, "hitCount": bp.hit_count,
            })
            continue
        every = re.fullmatch(r"\s*%\s*(\d+)\s*", bp.hit_condition or "")
        listed.append({
            "id": bp.id, "type": "Tracepoint" if bp.log_message else ("FunctionBreakpoint" if bp.function
                                                                        else "Breakpoint"),
            "file": bp.file, "line": bp.actual_line or bp.line, "column": None, "function": bp.function,
            "enabled": bp.enabled, "verified": bp.verified, "state": bp.state.capitalize(), "hitCount": bp.hit_count,
            "condition": bp.condition, "hitCondition": bp.hit_condition, "logMessage": bp.log_message,
            "hitCountMultiple": int(every.group(1)) if every else 0, "maxNotifications": bp.max_notifications or 0,
            "notificationsSent": bp.notifications_sent,
        })
    for name in session.breakpoints.default_filters():
        exceptions.append({"id": None, "filter": name, "exceptionType": None, "default": True,
                           "breakOnFirstChance": name == "raised", "breakOnSecondChance": name != "raised",
                           "includeSubtypes": True, "enabled": True, "verified": True, "hitCount": 0})
    return {"breakpoints": listed, "exceptionBreakpoints": exceptions}


async def _threads(session: DebugSession) -> dict[str, Any]:
    cache = session.threads_cache
    if session.state == "paused" and (cache is None or cache["cycle"] != session.stop_count):
        cache = session.threads_cache = await _capture_threads(session)
    if cache is None:
        return {"threads": [], "stale": True, "capturedAt": None}
    fresh = session.state == "paused" and cache["cycle"] == session.stop_count
    more = {key: cache[key] for key in ("threadsTotal", "truncated") if key in cache}
    return {"threads": cache["threads"], **more, "stale": not fresh, "capturedAt": cache["capturedAt"]}


async def _capture_threads(session: DebugSession) -> dict[str, Any]:
    every = (await session.request("threads")).get("threads") or []
    listed = every[:THREADS_LISTED]
    current = session.stop_info.thread_id if session.stop_info else None

    async def top(thread_id: int) -> dict[str, Any] | None:
        try:
            body = await session.request("stackTrace", {"threadId": thread_id, "startFrame": 0, "levels": 1})
        except DebugError:
            return None
        frames = body.get("stackFrames") or []
        if not frames:
            return None
        source = frames[0].get("source") or {}
        return {"file": source.get("path") or source.get("name"), "line": frames[0].get("line"),
                "column": frames[0].get("column") or None, "functionName": frames[0].get("name"), "moduleName": None}

    locations = await asyncio.gather(*(top(t["id"]) for t in listed))
    threads = [{"id": t["id"], "name": t.get("name", ""), "state": "Suspended", "isCurrent": t["id"] == current,
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


_BUILDERS = {"debugger://session": _session, "debugger://breakpoints": _breakpoints,
             "debugger://snapshots": _snapshots, "debugger://output": _output}
_FINGERPRINTS = {
    "debugger://session": _session,
    "debugger://breakpoints": _breakpoints,
    "debugger://threads": lambda session: (session.stop_count, session.state == "paused"),
    "debugger://snapshots": lambda session: (tuple(session.recorder.store.saved), session.recorder.store.kept()),
    "debugger://output": lambda session: session.output.size,
}
