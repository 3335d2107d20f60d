"""MCP over this process's stdin and stdout, read and written on the event loop.

The SDK's `stdio_server` runs every line read and every write-and-flush in a worker thread
(`anyio.wrap_file`) and passes each message through one more task on its way in and out. Here
pipes and sockets are watched by the event loop, and the server reads and writes them through the
SDK's transport protocols (`ReadStream`, `WriteStream`): a request is parsed where it is read and
an answer written by the task that sends it, as the SDK's transport parses and writes them. A
regular file (`dap2mcp serve < requests.jsonl`) or a terminal is read by a thread of our own.

A client that stops reading (its end of our stdout closed) can never be answered again: serving
stops as on SIGTERM, and the session is ended.

End of input does not cut off the answers still owed: the requests already read are answered
before the server stops (`printf '...' | dap2mcp serve` gets every answer).

As the SDK does for its own streams, fds 0 and 1 are moved out of the way while serving: a
stray read gets end of file and a stray write lands on stderr, never on the MCP channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import stat
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, Self

import anyio
import mcp_types as types
from mcp.shared.dispatcher import as_request_id, coerce_request_id
from mcp.shared.message import SessionMessage
from mcp_types import RequestId

from . import sdk

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

log = logging.getLogger(__name__)

LINE_LIMIT = 64 * 1024 * 1024
"""The longest JSON-RPC line accepted: tool arguments can carry a whole exported snapshot."""

FLUSH_LIMIT = 5.0
"""Seconds that answers still buffered at the end may take to reach a client that reads slowly."""


async def serve(server: MCPServer[Any]) -> None:
    lowlevel = sdk.lowlevel(server)  # what MCPServer.run_stdio_async runs, given other streams
    wire_in, wire_out = _take_wire()
    owed = _Owed()
    async with anyio.create_task_group() as group:

        def client_gone() -> None:
            """Nobody reads the answers any more: stop serving, as on SIGTERM, so the session ends."""
            owed.give_up()
            group.cancel_scope.cancel()

        async with _open(wire_in, wire_out, client_gone) as (readline, write, drain):
            group.start_soon(_stop_on_signal, group.cancel_scope)
            incoming, outgoing = _Incoming(readline, owed), _Outgoing(write, drain, owed, client_gone)
            await lowlevel.run(incoming, outgoing, lowlevel.create_initialization_options())
        group.cancel_scope.cancel()  # served to the end: stop waiting for signals
    if outgoing.failed is not None:
        raise SystemExit(1)


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


def _kind(fd: int) -> Literal["pipe", "socket", "file"]:
    """Pipes and sockets the event loop can watch. Not regular files or /dev/null, which epoll refuses,
    nor a terminal: asyncio would leave it non-blocking, for the shell and everything else sharing it."""
    mode = os.fstat(fd).st_mode
    return "pipe" if stat.S_ISFIFO(mode) else "socket" if stat.S_ISSOCK(mode) else "file"


class _WireProtocol(asyncio.streams.FlowControlMixin):
    """asyncio watches a write pipe for its reader closing: then the client is gone, not just done writing.
    (Only a pipe: on a socket, what asyncio takes for the reader closing is the client writing to us.)"""

    def __init__(self, on_lost: Callable[[], None]) -> None:
        super().__init__()
        self._on_lost = on_lost

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self._on_lost()


class _open:  # noqa: N801 - used as `async with _open(...)`, like open()
    """(readline, write, drain) over the two files: on the event loop where it can watch them. A socket
    passed as both stdin and stdout (socat, inetd, systemd socket activation) is one connection."""

    def __init__(self, wire_in: int, wire_out: int, on_lost: Callable[[], None]) -> None:
        self._in, self._out, self._on_lost = wire_in, wire_out, on_lost
        self._closers: list[Callable[[], None]] = []
        self._closing = False
        self._writer: asyncio.StreamWriter | None = None

    def _lost(self) -> None:
        if not self._closing:  # closing the pipe ourselves is not the client leaving
            self._on_lost()

    async def __aenter__(self) -> tuple[Callable[[], Awaitable[bytes]], Callable[[bytes], None],
                                        Callable[[], Awaitable[None]]]:
        loop = asyncio.get_running_loop()
        kind_in, kind_out = _kind(self._in), _kind(self._out)
        in_stat, out_stat = os.fstat(self._in), os.fstat(self._out)
        one_socket = kind_in == kind_out == "socket" and (in_stat.st_dev, in_stat.st_ino) == (out_stat.st_dev, out_stat.st_ino)
        readline: Callable[[], Awaitable[bytes]]
        if kind_in == "pipe":
            reader = asyncio.StreamReader(limit=LINE_LIMIT)
            transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                                        os.fdopen(self._in, "rb", 0))
            self._closers.append(transport.close)
            readline = reader.readline
        elif kind_in == "socket":
            reader, both_ways = await asyncio.open_connection(sock=socket.socket(fileno=self._in), limit=LINE_LIMIT)
            self._closers.append(both_ways.close)
            readline = reader.readline
        else:
            readline = _read_in_thread(os.fdopen(self._in, "rb"), loop)  # buffered: not byte by byte
        if kind_out == "file":
            sink = os.fdopen(self._out, "wb")  # buffered: a short write is carried on, not lost

            async def flush() -> None:
                sink.flush()
            return readline, sink.write, flush
        if one_socket:
            os.close(self._out)
            self._writer = both_ways
        elif kind_out == "socket":
            _, self._writer = await asyncio.open_connection(sock=socket.socket(fileno=self._out))
            self._closers.append(self._writer.close)
        else:
            out, protocol = await loop.connect_write_pipe(lambda: _WireProtocol(self._lost),
                                                          os.fdopen(self._out, "wb", 0))
            self._closers.append(out.close)
            self._writer = asyncio.StreamWriter(out, protocol, None, loop)
        return readline, self._writer.write, self._writer.drain

    async def __aexit__(self, *exc: object) -> None:
        if self._writer is not None:  # answers still buffered reach the client, unless it does not read
            with anyio.move_on_after(FLUSH_LIMIT, shield=True), contextlib.suppress(OSError):
                self._writer.transport.set_write_buffer_limits(0)
                await self._writer.drain()
        self._closing = True
        for close in self._closers:
            close()


def _read_in_thread(file: BinaryIO, loop: asyncio.AbstractEventLoop) -> Callable[[], Awaitable[bytes]]:
    """Lines of a file the event loop cannot watch, read by a daemon thread: a terminal's read cannot be
    interrupted, and the server must be able to leave while one waits for a key that never comes."""
    lines: asyncio.Queue[bytes] = asyncio.Queue()

    def post(line: bytes) -> bool:
        try:
            loop.call_soon_threadsafe(lines.put_nowait, line)
        except RuntimeError:  # the loop is gone: nobody reads any more
            return False
        return True

    def pump() -> None:
        try:
            while (line := file.readline(LINE_LIMIT)) and post(line):
                pass
        except OSError as exc:
            log.warning("cannot read the client's input: %s", exc)
        finally:
            post(b"")  # end of input, however the reading ended

    threading.Thread(target=pump, name="dap2mcp-stdin", daemon=True).start()
    return lines.get


class _Owed:
    """The requests read and not yet answered, by id as the SDK matches them (7 and "7" are one)."""

    def __init__(self) -> None:
        self.ids: Counter[RequestId] = Counter()
        self.settled = asyncio.Event()
        self.settled.set()

    def took(self, message: types.JSONRPCMessage) -> None:
        if isinstance(message, types.JSONRPCRequest):
            self.ids[coerce_request_id(message.id)] += 1
            self.settled.clear()
        elif isinstance(message, types.JSONRPCNotification) and message.method == "notifications/cancelled":
            params = message.params if isinstance(message.params, dict) else {}
            self._paid(params.get("requestId"))  # a cancelled request gets no answer

    def gave(self, message: types.JSONRPCMessage) -> None:
        if self.ids and isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            self._paid(message.id)

    def give_up(self) -> None:
        """The client can no longer read answers."""
        self.ids.clear()
        self.settled.set()

    def _paid(self, request_id: object) -> None:
        key = as_request_id(request_id)
        if key is None or (key := coerce_request_id(key)) not in self.ids:
            return
        self.ids[key] -= 1
        if self.ids[key] <= 0:
            del self.ids[key]
        if not self.ids:
            self.settled.set()


class _Stream:
    """What the SDK's stream protocols ask of both directions besides reading and writing: the pipes
    themselves are closed by `_open`, not by the SDK's `async with` around each stream."""

    async def aclose(self) -> None:
        return None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Incoming(_Stream):
    """The SDK's `ReadStream`: each line parsed as the SDK's own stdio transport parses it (a line
    that is not a message is handed on as its exception); at the end, once what is owed is paid."""

    def __init__(self, readline: Callable[[], Awaitable[bytes]], owed: _Owed) -> None:
        self._readline, self._owed = readline, owed

    async def receive(self) -> SessionMessage | Exception:
        while True:
            try:
                line = await self._readline()
            except ValueError:  # longer than LINE_LIMIT: it has no answer (its id is lost), so say so
                log.warning("dropped a message longer than %d bytes", LINE_LIMIT)
                continue
            if not line:
                await self._owed.settled.wait()
                raise anyio.EndOfStream
            try:
                message = types.jsonrpc_message_adapter.validate_json(line.decode("utf-8", errors="replace"),
                                                                      by_name=False)
            except Exception as exc:
                return exc
            self._owed.took(message)
            return SessionMessage(message)

    def __aiter__(self) -> _Incoming:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None


class _Outgoing(_Stream):
    """The SDK's `WriteStream`: a message goes onto the pipe in the task that sends it. Once the client
    has stopped reading, serving stops and what is left to send is dropped."""

    def __init__(self, write: Callable[[bytes], Any], drain: Callable[[], Awaitable[None]], owed: _Owed,
                 client_gone: Callable[[], None]) -> None:
        self._write, self._drain, self._owed, self._client_gone = write, drain, owed, client_gone
        self._gone = False
        self.failed: OSError | None = None
        """A write that failed for another reason than the client leaving (a full disk, say)."""

    async def send(self, item: SessionMessage) -> None:
        if self._gone:
            return
        line = item.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
        try:
            self._write(line.encode("utf-8"))
            await self._drain()
        except ConnectionError as exc:  # the reader closed: BrokenPipeError, or ConnectionResetError from drain
            log.info("the client stopped reading: %s", exc)
            self._gone = True
            self._client_gone()
            return
        except OSError as exc:
            log.error("cannot write to the client: %s", exc)
            self._gone, self.failed = True, exc
            self._client_gone()
            return
        self._owed.gave(item.message)
