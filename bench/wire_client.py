"""A thin MCP client over stdio: newline-delimited JSON-RPC, nothing else.

The raw DAP side of the step benchmarks is a thin client (dap2mcp.dap.DapClient: framing, seq
matching, no schema checks). This is its counterpart on the MCP side, so the two can be compared
like for like: it does the MCP handshake and sends `tools/call`, and it parses each answer, but it
does not model-validate results with pydantic or check them against the tool's output schema, as
the SDK's Python client does on every call (see bench/README.md for what that costs).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from mcp_types import CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY
from mcp_types.version import LATEST_HANDSHAKE_VERSION, LATEST_MODERN_VERSION

CLIENT_INFO = {"name": "dap2mcp-bench-wire", "version": "0"}


class WireError(RuntimeError):
    pass


class WireClient:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.last_id = 0
        self.meta: dict[str, Any] = {}
        """What every request carries in the modern protocol era (none in the handshake era)."""

    @classmethod
    async def start(cls, argv: list[str], **kwargs: Any) -> WireClient:
        """Connect as the SDK's `Client` does by default: `server/discover` and the modern era where the
        server offers it, else the `initialize` handshake; so both clients meet the same server code."""
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 26, **kwargs)
        client = cls(process)
        modern = {PROTOCOL_VERSION_META_KEY: LATEST_MODERN_VERSION, CLIENT_INFO_META_KEY: CLIENT_INFO,
                  CLIENT_CAPABILITIES_META_KEY: {}}
        try:
            await client.request("server/discover", {"_meta": modern})
            client.meta = modern
        except WireError:
            await client.request("initialize", {"protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": {},
                                                "clientInfo": CLIENT_INFO})
            client._write({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return client

    def _write(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send one request and read until its answer; notifications on the way are passed over."""
        assert self.process.stdout is not None
        self.last_id += 1
        if self.meta and method != "server/discover":
            params = {**params, "_meta": self.meta}
        self._write({"jsonrpc": "2.0", "id": self.last_id, "method": method, "params": params})
        while True:
            line = await self.process.stdout.readline()
            if not line:
                raise WireError(f"the server closed its output before answering {method}")
            message = json.loads(line)
            if message.get("id") != self.last_id or "method" in message:
                continue
            if "error" in message:
                raise WireError(f"{method}: {message['error']}")
            return message["result"]

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The tool's structured result."""
        result = await self.request("tools/call", {"name": name, "arguments": arguments})
        return result["structuredContent"]

    async def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 20)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
