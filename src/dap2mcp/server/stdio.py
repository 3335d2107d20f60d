"""MCP over this process's stdin and stdout, read and written on the event loop.

The SDK's `stdio_server` runs every line read and every write-and-flush in a worker thread
(`anyio.wrap_file`): two thread hand-offs per tool call. Pipes can be watched by the event loop
directly, so here they are, and the SDK's `stdio_server` gets them as its `stdin`/`stdout` (it
then does the JSON-RPC framing as usual). A regular file (`dap2mcp serve < requests.jsonl`) is
read in a thread instead.

End of input does not cut off the answers still owed: the requests already read are answered
before the server stops (`printf '...' | dap2mcp serve` gets every answer).

As the SDK does for its own streams, fds 0 and 1 are moved out of the way while serving: a
stray read gets end of file and a stray write lands on stderr, never on the MCP channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import stat
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import anyio
import mcp_types as types
from mcp.server.stdio import stdio_server

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

log = logging.getLogger(__name__)

LINE_LIMIT = 64 * 1024 * 1024
"""The longest JSON-RPC line accepted: tool arguments can carry a whole exported snapshot."""


async def serve(server: MCPServer[Any]) -> None:
    lowlevel = server._lowlevel_server  # what MCPServer.run_stdio_async runs, given other streams
    wire_in, wire_out = _take_wire()
    owed = _Owed()
    async with anyio.create_task_group() as group, _open(wire_in, wire_out, owed.give_up) as (readline, write, drain):
        group.start_soon(_stop_on_signal, group.cancel_scope)
        lines, writer = _Lines(readline, owed), _Writer(write, drain, owed)
        async with stdio_server(stdin=lines, stdout=writer) as (read_stream, write_stream):  # type: ignore[arg-type]
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
        group.cancel_scope.cancel()  # served to the end: stop waiting for signals


async def _stop_on_signal(scope: anyio.CancelScope) -> None:
    """SIGTERM is how a client ends a server that does not leave on end of input (the MCP stdio
    shutdown): stop serving so that the lifespan ends the session and reaps every process. Left to
    Python's default, the server would die at once and a traced native or Go program live on."""
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP) as signals:
        async for _ in signals:
            scope.cancel()
            return


def _take_wire() -> tuple[int, int]:
    """Private copies of fds 0 and 1 for the MCP channel; 0 then reads /dev/null and 1 writes to stderr."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    return wire_in, wire_out


def _watchable(fd: int) -> bool:
    """Pipes and sockets. Not regular files or /dev/null, which epoll refuses, nor a terminal:
    asyncio would leave it non-blocking, for the shell and everything else sharing it."""
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class _WireProtocol(asyncio.streams.FlowControlMixin):
    """asyncio watches a write pipe for its reader closing: then the client is gone, not just done writing."""

    def __init__(self, on_lost: Callable[[], None]) -> None:
        super().__init__()
        self._on_lost = on_lost

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self._on_lost()


class _open:  # noqa: N801 - used as `async with _open(...)`, like open()
    """(readline, write, drain) over the two files: on the event loop where it can watch them."""

    def __init__(self, wire_in: int, wire_out: int, on_lost: Callable[[], None]) -> None:
        self._in, self._out, self._on_lost = wire_in, wire_out, on_lost
        self._closers: list[Callable[[], None]] = []

    async def __aenter__(self) -> tuple[Callable[[], Awaitable[bytes]], Callable[[bytes], None],
                                        Callable[[], Awaitable[None]]]:
        loop = asyncio.get_running_loop()
        if _watchable(self._in):
            reader = asyncio.StreamReader(limit=LINE_LIMIT)
            pipe = os.fdopen(self._in, "rb", 0)
            transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
            self._closers.append(transport.close)
            readline: Callable[[], Awaitable[bytes]] = reader.readline
        else:
            file = os.fdopen(self._in, "rb")  # buffered: a long line is not read byte by byte

            async def readline() -> bytes:
                # a terminal's read cannot be interrupted: on a signal the thread is left to it
                return await anyio.to_thread.run_sync(file.readline, LINE_LIMIT, abandon_on_cancel=True)
        if _watchable(self._out):
            out, protocol = await loop.connect_write_pipe(lambda: _WireProtocol(self._on_lost),
                                                          os.fdopen(self._out, "wb", 0))
            self._closers.append(out.close)
            writer = asyncio.StreamWriter(out, protocol, None, loop)
            return readline, writer.write, writer.drain
        sink = os.fdopen(self._out, "wb", 0)

        async def nothing() -> None:
            return None
        return readline, sink.write, nothing

    async def __aexit__(self, *exc: object) -> None:
        for close in self._closers:
            close()


class _Owed:
    """Ids of the requests read and not yet answered."""

    def __init__(self) -> None:
        self.ids: set[Any] = set()
        self.settled = asyncio.Event()
        self.settled.set()

    def took(self, line: str) -> None:
        """Count what the SDK will answer: a message it takes for a request (parsed the way it parses)."""
        try:
            message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except Exception:  # not a request: it is answered, if at all, with no id to wait for
            return
        if isinstance(message, types.JSONRPCRequest):
            self.ids.add(str(message.id))  # the SDK takes 7 and "7" for the same request
            self.settled.clear()
        elif isinstance(message, types.JSONRPCNotification) and message.method == "notifications/cancelled":
            params = message.params if isinstance(message.params, dict) else {}
            with contextlib.suppress(TypeError):  # a cancelled request gets no answer
                self._paid(params.get("requestId"))

    def gave(self, text: str) -> None:
        if self.ids:
            message = _parsed(text)
            if "method" not in message:
                with contextlib.suppress(TypeError):
                    self._paid(message.get("id"))

    def give_up(self) -> None:
        """The client can no longer read answers."""
        self.ids.clear()
        self.settled.set()

    def _paid(self, request_id: Any) -> None:
        self.ids.discard(str(request_id))
        if not self.ids:
            self.settled.set()


def _parsed(text: bytes | str) -> dict[str, Any]:
    try:
        message = json.loads(text)
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}


class _Lines:
    """Decoded lines of the input, as the SDK iterates its stdin; at the end, once what is owed is paid."""

    def __init__(self, readline: Callable[[], Awaitable[bytes]], owed: _Owed) -> None:
        self._readline, self._owed = readline, owed

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        while True:
            try:
                line = await self._readline()
            except ValueError:  # longer than LINE_LIMIT: it has no answer (its id is lost), so say so
                log.warning("dropped a message longer than %d bytes", LINE_LIMIT)
                continue
            if not line:
                await self._owed.settled.wait()
                return
            text = line.decode("utf-8", errors="replace")
            self._owed.took(text)
            yield text


class _Writer:
    """The SDK writes a line and flushes it; drain is the flush."""

    def __init__(self, write: Callable[[bytes], Any], drain: Callable[[], Awaitable[None]], owed: _Owed) -> None:
        self._write, self._drain, self._owed = write, drain, owed

    async def write(self, text: str) -> None:
        try:
            self._write(text.encode("utf-8"))
        except OSError:
            self._owed.give_up()
            raise
        self._owed.gave(text)

    async def flush(self) -> None:
        try:
            await self._drain()
        except OSError:
            self._owed.give_up()
            raise
