"""The MCP server: the SDK's `MCPServer`, with every failure mapped onto the one envelope."""

from __future__ import annotations

import difflib
import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import (
    CallToolResult,
    Resource,
    ResourceTemplate,
    SetLevelRequestParams,
    SubscribeRequestParams,
    UnsubscribeRequestParams,
)
from mcp.types import Tool as MCPTool
from opentelemetry import trace
from pydantic import ValidationError

from .. import __version__, reaper
from ..errors import DebugError, ErrorCode, Failure
from ..session.debugger import Debugger
from ..session.models import inline_refs
from . import resources, sdk, snapshot_tools, tools
from .binding import bind
from .failures import coded
from .notices import LogRelay, request_session
from .prompts import prompts
from .results import failure
from .updates import ResourceUpdates

log = logging.getLogger(__name__)

CLOSE_LIMIT = 15.0
"""Seconds that ending the session may take on the way out, before the server leaves anyway."""

INSTRUCTIONS = (
    "A debugger for Python, C, C++, Rust and Go programs over the Debug Adapter Protocol. Start with `debug` "
    "(mode source, path, breakpoints); every execution tool returns where the program stopped "
    "and its variables. Failures come back as {success:false,error:{code,message}}."
)


class DebugServer(MCPServer[Any]):
    """`MCPServer` whose tool failures all come back as the seed's error envelope."""

    relay: LogRelay
    debugger: Debugger
    updates: ResourceUpdates
    tools_by_name: dict[str, Tool]

    async def list_tools(self) -> list[MCPTool]:
        tools = await super().list_tools()
        for tool in tools:
            tool.input_schema["additionalProperties"] = False  # as call_tool enforces
            if tool.output_schema is not None:
                tool.output_schema = inline_refs(tool.output_schema)
        return tools

    async def list_resources(self) -> list[Resource]:
        return resources.listing(self.debugger)

    async def list_resource_templates(self) -> list[ResourceTemplate]:
        return resources.templates(self.debugger)

    async def read_resource(self, uri: Any, context: Context | None = None) -> Iterable[ReadResourceContents]:
        self.updates.seen(request_session(context))
        text, mime_type = await resources.read(self.debugger, str(uri))
        return [ReadResourceContents(content=text, mime_type=mime_type)]

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None) -> Any:
        self.updates.seen(request_session(context))
        with self.relay.call(context):
            try:
                _refuse_unknown(name, arguments, self.tools_by_name.get(name))
                return await super().call_tool(name, arguments, context)
            except Failure as exc:
                return failure(coded(exc), self._about(name, arguments))
            except ToolError as exc:
                return failure(_as_debug_error(name, exc), self._about(name, arguments))
            finally:
                self.updates.poke()  # breakpoints, snapshots and counts change inside tool calls


    def _about(self, name: str, arguments: dict[str, Any]) -> str | None:
        """The session a failed call of a tool that takes `sessionId` was about: the one named, where it is one of
        the debugger's, else the current one."""
        tool = self.tools_by_name.get(name)
        if tool is None or "sessionId" not in (tool.parameters.get("properties") or {}):
            return None
        given = arguments.get("sessionId")
        try:
            return self.debugger.resolve(given if isinstance(given, str) else None)
        except DebugError:  # no session, or none of that name: the error says so
            return None


def _refuse_unknown(name: str, arguments: dict[str, Any], tool: Tool | None) -> None:
    """A misspelled argument would otherwise be dropped without a word, and the call do something else
    than asked (`continue` with `too` runs to the end)."""
    known = list((tool.parameters.get("properties") or {}) if tool is not None else {})
    unknown = [key for key in arguments if key not in known]
    if tool is None or not unknown:
        return
    guesses = [f"'{key}' (did you mean '{close[0]}'?)" if (close := difflib.get_close_matches(key, known, 1)) else f"'{key}'"
               for key in unknown]
    raise DebugError(ErrorCode.INVALID_ARGUMENT, f"unknown argument{'s' * (len(unknown) > 1)} for '{name}': "
                     f"{', '.join(guesses)}; it takes {', '.join(known) or 'no arguments'}")


def _as_debug_error(tool: str, exc: ToolError) -> DebugError:
    cause = exc.__cause__
    while isinstance(cause, ToolError) and cause.__cause__ is not None:
        cause = cause.__cause__
    if isinstance(cause, Failure):
        return coded(cause)
    if isinstance(cause, ValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: "
            f"{'unknown key' if err['type'] == 'extra_forbidden' else err['msg']}" for err in cause.errors()
        )
        return DebugError(ErrorCode.INVALID_ARGUMENT, f"invalid arguments for '{tool}': {problems}")
    if cause is None and "Unknown tool" in str(exc):
        return DebugError(ErrorCode.INVALID_ARGUMENT, str(exc))
    log.error("tool %s failed", tool, exc_info=cause or exc)
    return DebugError(ErrorCode.INTERNAL, f"internal error in '{tool}': {type(cause or exc).__name__}: {cause or exc}")


def build_server(debugger: Debugger | None = None) -> DebugServer:
    debugger = debugger or Debugger()

    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[Debugger]:
        reaper.start()
        try:
            yield debugger
        finally:  # the client went away (or a signal ended serving): end the session and reap every child
            updates.close()
            with anyio.CancelScope(shield=True), anyio.move_on_after(CLOSE_LIMIT):
                await debugger.close()

    bound = [bind(fn, debugger) for fn in (*tools.TOOLS, *snapshot_tools.TOOLS)]
    updates = ResourceUpdates(lambda: resources.watched(debugger),
                              fingerprint=lambda uri: resources.fingerprint(debugger, uri),
                              listed=lambda: tuple(item.uri for item in resources.listing(debugger)))
    server = DebugServer(name="dap2mcp", version=__version__, instructions=INSTRUCTIONS, lifespan=lifespan,
                         log_level="WARNING", subscriptions=updates.bus, tools=bound)
    server.relay, server.debugger, server.updates = LogRelay(), debugger, updates
    server.tools_by_name = {tool.name: tool for tool in bound}
    for prompt in prompts():
        server.add_prompt(prompt)
    lowlevel = sdk.lowlevel(server)
    lowlevel.add_request_handler("logging/setLevel", SetLevelRequestParams, server.relay.on_set_level)
    lowlevel.add_request_handler("resources/subscribe", SubscribeRequestParams, updates.on_subscribe)
    lowlevel.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, updates.on_unsubscribe)
    sdk.advertise_list_changes(server, NotificationOptions(resources_changed=True))  # 2025-11-25 says false otherwise
    server.middleware[:] = [_WhileTraced(m) if isinstance(m, sdk.OpenTelemetryMiddleware) else m for m in server.middleware]
    debugger.notice, debugger.changed = server.relay.emit, updates.poke
    return server


class _WhileTraced:
    """The SDK's span around each request, made only while a tracer provider takes spans. The span costs
    a step about 0.1 ms even when nothing takes it, which is the usual case: no provider is set unless the
    server runs under `opentelemetry-instrument` or an embedding program sets one, at any time."""

    def __init__(self, spans: sdk.OpenTelemetryMiddleware) -> None:
        self._spans = spans

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
            return await call_next(ctx)
        return await self._spans(ctx, call_next)


__all__ = ["CallToolResult", "DebugServer", "build_server"]
