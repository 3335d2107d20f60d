"""Breakpoint and tracepoint hits, forwarded to the client as MCP log notifications where it asked.

On 2025-11-25 a client asks with `logging/setLevel`, for itself alone; hits are then sent to it at
level `info`, on its call in progress or else on its connection, whichever client drives. On
2026-07-28 a client asks per request (the log level in the request's `_meta`), so hits reach it
only while such a call is in progress, typically the `continue` or `wait` a tracepoint fires
during. Either way every hit is also in the output buffer, which the `output` tool reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import warnings
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, get_args

from mcp import MCPDeprecationWarning
from mcp.server.mcpserver import Context
from mcp.types import EmptyResult, LoggingLevel, SetLevelRequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from .sdk import connection_of

log = logging.getLogger(__name__)

LEVELS: tuple[str, ...] = get_args(LoggingLevel)
HIT_LEVEL = "info"
LOGGER = "dap2mcp"


def request_session(context: Context[Any, Any] | None) -> Any:
    """The SDK session of the request `context` belongs to; None outside a request."""
    try:
        return context.request_context.session if context is not None else None
    except Exception:  # a context outside a request has no session
        return None


class LogRelay:
    """Each client's own choice: a level one client sets is not another's, and a hit goes to every
    client that asked, whichever of them drives the session."""

    def __init__(self) -> None:
        self._levels: dict[Any, tuple[Any, str]] = {}
        """2025-11-25 clients that set a level: their connection, a session to send on, the level."""
        self._calls: list[Context[Any, Any]] = []
        self._sending: set[asyncio.Future[None]] = set()

    async def on_set_level(self, ctx: Any, params: SetLevelRequestParams) -> EmptyResult:
        self._levels[connection_of(ctx.session) or ctx.session] = (ctx.session, params.level)
        return EmptyResult()

    @contextlib.contextmanager
    def call(self, context: Context[Any, Any] | None) -> Iterator[None]:
        """Hits during this tool call go out on it."""
        if context is None:
            yield
            return
        self._calls.append(context)
        try:
            yield
        finally:
            self._calls.remove(context)

    def emit(self, data: dict[str, Any]) -> None:
        task = asyncio.ensure_future(self._send(data))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def _asked(self, connection: Any) -> bool:
        level = self._levels.get(connection, (None, None))[1]
        return level is not None and LEVELS.index(HIT_LEVEL) >= LEVELS.index(level)

    async def _send(self, data: dict[str, Any]) -> None:
        reached = set()
        for call in reversed(self._calls):  # on a client's call in progress, so it is tied to that request
            session = request_session(call)
            connection = connection_of(session) or session
            if session is None or connection in reached:
                continue
            if session.protocol_version in MODERN_PROTOCOL_VERSIONS or self._asked(connection):
                reached.add(connection)
                await _quietly(functools.partial(call.log, HIT_LEVEL, data, logger_name=LOGGER))  # type: ignore[arg-type]
        for connection, (session, _) in list(self._levels.items()):  # between its calls, on its connection
            if connection not in reached and self._asked(connection) and not await _quietly(
                    functools.partial(session.send_log_message, HIT_LEVEL, data, logger=LOGGER)):
                self._levels.pop(connection, None)  # gone


async def _quietly(send: Callable[[], Awaitable[None]]) -> bool:
    """False if the client could not be sent to: a client that went away must not break the session."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)  # logging is deprecated in 2026-07-28
            await send()
    except Exception as exc:
        log.debug("log notification not sent: %r", exc)
        return False
    return True
