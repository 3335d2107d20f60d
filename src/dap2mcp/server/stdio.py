"""MCP over this process's stdin and stdout, read and written on the event loop.

The SDK's `stdio_server` runs every line read and every write-and-flush in a worker thread
(`anyio.wrap_file`): two thread hand-offs per tool call, about 0.6 ms of a ~8 ms `step`. Pipes
can be watched by the event loop directly, so here they are, and the SDK's `stdio_server` gets
them as its `stdin`/`stdout` (it then does the JSON-RPC framing as usual).

As the SDK does for its own streams, fds 0 and 1 are moved out of the way while serving: a
stray read gets end of file and a stray write lands on stderr, never on the MCP channel.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from mcp.server.stdio import stdio_server

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

LINE_LIMIT = 64 * 1024 * 1024
"""The longest JSON-RPC line accepted: tool arguments can carry a whole exported snapshot."""


def pipes_only() -> bool:
    """The event loop can watch pipes, sockets and terminals, not regular files."""
    def watchable(fd: int) -> bool:
        mode = os.fstat(fd).st_mode
        return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)
    return sys.platform != "win32" and watchable(0) and watchable(1)


async def serve(server: MCPServer[Any]) -> None:
    lowlevel = server._lowlevel_server  # what MCPServer.run_stdio_async runs, given other streams
    wire_in, wire_out = _take_wire()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LINE_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(wire_in, "rb", 0))
    transport, protocol = await loop.connect_write_pipe(lambda: asyncio.streams.FlowControlMixin(),
                                                        os.fdopen(wire_out, "wb", 0))
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    try:
        async with stdio_server(stdin=_Lines(reader), stdout=_Writer(writer)) as (read_stream, write_stream):  # type: ignore[arg-type]
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
    finally:
        transport.close()


def _take_wire() -> tuple[int, int]:
    """Private copies of fds 0 and 1 for the MCP channel; 0 then reads /dev/null and 1 writes to stderr."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    return wire_in, wire_out


class _Lines:
    """Decoded lines of the reader, as the SDK iterates its stdin."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        while True:
            try:
                line = await self._reader.readline()
            except ValueError:  # longer than LINE_LIMIT: answered as a bad message, like its tail after it
                line = b"{}\n"
            if not line:
                return
            yield line.decode("utf-8", errors="replace")


class _Writer:
    """The SDK writes a line and flushes it; drain is the flush."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def write(self, text: str) -> None:
        self._writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self._writer.drain()
