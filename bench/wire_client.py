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

from mcp.types import LATEST_PROTOCOL_VERSION


class WireError(RuntimeError):
    pass


class WireClient:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.last_id = 0

    @classmethod
    async def start(cls, argv: list[str], **kwargs: Any) -> WireClient:
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 26, **kwargs)
        client = cls(process)
        await client.request("initialize", {"protocolVersion": LATEST_PROTOCOL_VERSION, "capabilities": {},
                                            "clientInfo": {"name": "dap2mcp-bench-wire", "version": "0"}})
        client._write({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return client

    def _write(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send one request and read until its answer; notifications on the way are passed over."""
        assert self.process.stdout is not None
        self.last_id += 1
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
