"""MCP resources: the live debug session as JSON documents (built by the debugger: `session/documents.py`).

They exist while a session does (the list is empty otherwise). Source files are served through the
`debugger://source/{+file}` template, only those the debug adapter has referenced.
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
            return debugger.source(uri.removeprefix(SOURCE_PREFIX)), "text/plain"
        if not uri.startswith(PREFIX) or uri.removeprefix(PREFIX) not in DOCUMENTS:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"Unknown resource: {uri}")
        document = await debugger.document(uri.removeprefix(PREFIX))
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
    return debugger.fingerprint(uri.removeprefix(PREFIX)) if uri.startswith(PREFIX) else None
