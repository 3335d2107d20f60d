"""MCP resources: the live debug sessions as JSON documents (built by the debugger: `session/documents.py`).

`debugger://session`, `breakpoints`, `threads`, `snapshots` and `output` are the current session's, and
exist while there is one; each session's own are under `debugger://sessions/{sessionId}/{document}`, and
`debugger://sessions` lists the sessions. Source files are served through the `debugger://source/{+file}`
template, only those a debug adapter has referenced.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from mcp.shared.exceptions import MCPError
from mcp.types import INTERNAL_ERROR, INVALID_PARAMS, Resource, ResourceTemplate

from ..errors import DebugError, ErrorCode, Failure
from ..session.debugger import DOCUMENTS, Debugger
from .failures import coded

MIME = "application/json"
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


PREFIX = "debugger://"
LISTED = (
    Listed("debugger://session", "Debug Session", "The debugged process: state, location, how it was started"),
    Listed("debugger://breakpoints", "Breakpoints", "All breakpoints, tracepoints and exception breakpoints"),
    Listed("debugger://threads", "Threads", "Threads of the debugged process, as of the last stop"),
    Listed("debugger://snapshots", "Snapshots", "Saved snapshots of program state, and the stops recorded"),
    Listed("debugger://output", "Output", "The program's output so far (the last 8,000 characters)"),
)


SESSIONS = "debugger://sessions"
EACH_PREFIX = SESSIONS + "/"
EACH = ResourceTemplate(uri_template=EACH_PREFIX + "{sessionId}/{document}", name="A Session's Document",
                        mime_type=MIME, description="One session's session, breakpoints, threads, snapshots or "
                                                    "output document, by its sessionId (see debugger://sessions)")


def listing(debugger: Debugger) -> list[Resource]:
    if not len(debugger.sessions):
        return []
    listed = [Resource(uri=item.uri, name=item.name, description=item.description, mime_type=MIME)
              for item in LISTED] if debugger.has_session else []
    return [*listed, Resource(uri=SESSIONS, name="Sessions", mime_type=MIME, description=(
        "Every debug session running: sessionId, parentId, program, state, where paused"))]


def templates(debugger: Debugger) -> list[ResourceTemplate]:
    return [SOURCE, EACH] if len(debugger.sessions) else []


def watched(debugger: Debugger) -> tuple[str, ...]:
    """Every resource whose changes are notified now: the current session's, the list, each session's own."""
    each = tuple(f"{EACH_PREFIX}{session.id}/{name}" for session in debugger.sessions for name in DOCUMENTS)
    return (*(item.uri for item in LISTED), SESSIONS, *each)


async def read(debugger: Debugger, uri: str) -> tuple[str, str]:
    """The resource's text and MIME type. Failures are JSON-RPC errors whose `data` names the code."""
    try:
        if uri.startswith(SOURCE_PREFIX):
            return debugger.source(uri.removeprefix(SOURCE_PREFIX)), "text/plain"
        session_id, name = _document_of(uri)
        document = debugger.sessions_document() if name == "sessions" else await debugger.document(name, session_id)
    except Failure as exc:
        error = coded(exc)
        if uri.startswith(SOURCE_PREFIX) and error.code in (ErrorCode.INVALID_ARGUMENT, ErrorCode.FILE_NOT_FOUND):
            code = SOURCE_REFUSED
        elif error.code in (ErrorCode.INTERNAL, ErrorCode.ADAPTER_FAILED, ErrorCode.TIMEOUT):
            code = INTERNAL_ERROR
        else:
            code = INVALID_PARAMS
        raise MCPError(code, error.message, {"uri": uri, "code": error.code}) from exc
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False), MIME


def fingerprint(debugger: Debugger, uri: str) -> object:
    """A cheap stand-in for the resource's content, without asking the adapter anything: when it
    differs from the last one compared, subscribers are told the resource was updated."""
    try:
        session_id, name = _document_of(uri)
    except DebugError:
        return None
    return debugger.fingerprint(name, session_id)


def _document_of(uri: str) -> tuple[str | None, str]:
    """The session (None: the current one) and the document a URI names."""
    if uri == SESSIONS:
        return None, "sessions"
    if uri.startswith(EACH_PREFIX):
        session_id, _, name = uri.removeprefix(EACH_PREFIX).partition("/")
        if session_id and name in DOCUMENTS:
            return session_id, name
    elif uri.startswith(PREFIX) and uri.removeprefix(PREFIX) in DOCUMENTS:
        return None, uri.removeprefix(PREFIX)
    raise DebugError(ErrorCode.INVALID_ARGUMENT, f"Unknown resource: {uri}")
