"""Breakpoint and tracepoint hits, forwarded to the client as MCP log notifications where it asked.

On 2025-11-25 a client asks with `logging/setLevel`; hits are then sent at level `info` on the
call in progress, or on the connection between calls. On 2026-07-28 a client asks per request
(the log level in the request's `_meta`), so hits reach it only while such a call is in
progress, typically the `continue` or `wait` a tracepoint fires during. Either way every hit is
also in the output buffer, which the `output` tool reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import warnings
from collections.abc import Iterator
from typing import Any, get_args

from mcp import MCPDeprecationWarning
from mcp.server.mcpserver import Context
from mcp.types import EmptyResult, LoggingLevel, SetLevelRequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

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
    def __init__(self) -> None:
        self.level: str | None = None
        self._calls: list[Context[Any, Any]] = []
        self._session: Any = None
        self._sending: set[asyncio.Future[None]] = set()

    async def on_set_level(self, _: Any, params: SetLevelRequestParams) -> EmptyResult:
        self.level = params.level
        return EmptyResult()

    @contextlib.contextmanager
    def call(self, context: Context[Any, Any] | None) -> Iterator[None]:
        """Hits during this tool call go out on it."""
        if context is None:
            yield
            return
        self._session = request_session(context) or self._session
        self._calls.append(context)
        try:
            yield
        finally:
            self._calls.remove(context)

    def emit(self, data: dict[str, Any]) -> None:
        task = asyncio.ensure_future(self._send(data))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, data: dict[str, Any]) -> None:
        call = self._calls[-1] if self._calls else None
        session = self._session
        if session is None:
            return
        modern = session.protocol_version in MODERN_PROTOCOL_VERSIONS
        if not modern and (self.level is None or LEVELS.index(HIT_LEVEL) < LEVELS.index(self.level)):
            return  # this client did not ask for log messages at this level
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                if call is not None:
                    await call.log(HIT_LEVEL, data, logger_name=LOGGER)  # type: ignore[arg-type]
                elif not modern:
                    await session.send_log_message(HIT_LEVEL, data, logger=LOGGER)
        except Exception as exc:  # a client that went away must not break the session
            log.debug("log notification not sent: %r", exc)
