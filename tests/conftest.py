"""Shared helpers: paths of the test programs, `# marker:` line lookup, MCP clients."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import psutil
from mcp import Client
from mcp.client.stdio import StdioServerParameters

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "tests" / "programs"
INVOICE = ROOT / "examples" / "python" / "invoice.py"


def marker(path: Path, name: str) -> int:
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if f"# marker: {name}" in text:
            return number
    raise LookupError(f"no marker {name} in {path}")


class Tools:
    """Calls tools and returns their structured content, checking the envelope on every call."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def __call__(self, tool: str, /, **arguments: Any) -> dict[str, Any]:
        result = await self.client.call_tool(tool, arguments)
        data = result.structured_content
        assert isinstance(data, dict), f"{tool}: no structured content: {result.content}"
        assert data["success"] is (not result.is_error), f"{tool}: envelope and isError disagree: {data}"
        if not data["success"]:
            assert set(data["error"]) == {"code", "message"} and data["error"]["message"], data
        return data

    async def ok(self, tool: str, /, **arguments: Any) -> dict[str, Any]:
        data = await self(tool, **arguments)
        assert data["success"], f"{tool} failed: {data}"
        return data

    async def error(self, tool: str, code: str, /, **arguments: Any) -> str:
        data = await self(tool, **arguments)
        assert not data["success"], f"{tool} should have failed with {code}: {data}"
        assert data["error"]["code"] == code, data
        return data["error"]["message"]


def server_params() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve"])


@asynccontextmanager
async def stdio_tools() -> AsyncIterator[Tools]:
    """A real MCP client talking to `dap2mcp serve` in a subprocess over stdio."""
    async with Client(server_params()) as client:
        yield Tools(client)


def server_processes() -> list[psutil.Process]:
    me = psutil.Process()
    return [p for p in me.children(recursive=True) if "dap2mcp" in " ".join(_cmdline(p))]


def _cmdline(proc: psutil.Process) -> list[str]:
    try:
        return proc.cmdline()
    except psutil.Error:
        return []


def locals_of(context: dict[str, Any]) -> dict[str, str]:
    scope = next(s for s in context["scopes"] if s["name"] == "Locals")
    return {v["name"]: v["value"] for v in scope["variables"]}
