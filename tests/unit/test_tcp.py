"""The TCP transport (dlv dap, debugpy --listen): a scripted peer on loopback, at the wire level."""

from __future__ import annotations

import asyncio
import socket

import pytest

from dap2mcp.dap import DapClient, connect_tcp
from dap2mcp.dap.framing import encode, read_message
from dap2mcp.errors import Failure
from dap2mcp.server.failures import coded


async def test_requests_over_tcp_and_peer_close_fails_pending():
    close_now = asyncio.Event()

    async def peer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = await read_message(reader)
        assert request is not None
        writer.write(encode({"seq": 1, "type": "response", "request_seq": request["seq"], "success": True,
                             "command": request["command"], "body": {"supportsConfigurationDoneRequest": True}}))
        await read_message(reader)  # a second request, left unanswered
        await close_now.wait()
        writer.close()

    server = await asyncio.start_server(peer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = DapClient(await connect_tcp("127.0.0.1", port))
    client.start()
    try:
        assert await client.request("initialize", {}) == {"supportsConfigurationDoneRequest": True}
        pending = client.send("threads")
        await asyncio.sleep(0.05)
        close_now.set()
        with pytest.raises(Failure) as caught:
            await asyncio.wait_for(pending, 10)  # a hang guard: the close is seen in milliseconds
        assert coded(caught.value).code == "ADAPTER_FAILED"
    finally:
        await client.close()
        server.close()


async def test_connect_to_nothing_is_adapter_failed():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # bound, not listening: connections are refused
        with pytest.raises(Failure) as caught:
            await connect_tcp("127.0.0.1", port, timeout=2)
    assert coded(caught.value).code == "ADAPTER_FAILED" and str(port) in caught.value.message


async def test_the_connection_sends_each_request_at_once():
    """TCP_NODELAY, which asyncio's transports set on every TCP socket (so connect_tcp need not): without it, a
    request written while the one before is unacknowledged (the variables of every scope, sent together) waits
    for the adapter's delayed ACK, up to 40 ms on Linux. Pinned here because the step figures rely on it."""
    server = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)
    transport = await connect_tcp("127.0.0.1", server.sockets[0].getsockname()[1])
    try:
        sock = transport.writer.get_extra_info("socket")
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        await transport.close()
        server.close()
