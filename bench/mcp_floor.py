"""An MCP server whose `step` does no debugging: it answers with a context recorded from a real
step, through the same SDK, result types and stdio transport as `dap2mcp serve`. Timing it beside
the real server shows what the protocol alone costs per call.

Run by bench/step_latency.py as `python bench/mcp_floor.py RESULT.json`.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, Tool

from dap2mcp.server import results as r
from dap2mcp.server import stdio
from dap2mcp.session.models import inline_refs


class FloorServer(MCPServer[Any]):
    async def list_tools(self) -> list[Tool]:  # schemas published as dap2mcp publishes them
        tools = await super().list_tools()
        for tool in tools:
            tool.output_schema = inline_refs(tool.output_schema) if tool.output_schema else None
        return tools


def build(recorded: dict[str, Any]) -> MCPServer[Any]:
    server = FloorServer("dap2mcp-floor")

    @server.tool("step", structured_output=True)
    async def step(mode: Literal["over", "in", "out"], threadId: int | None = None,
                   timeout: float = 30.0) -> Annotated[CallToolResult, r.ContextResult]:
        return r.ok(r.ContextResult.model_validate(recorded))

    return server


if __name__ == "__main__":
    with open(sys.argv[1]) as file:
        anyio.run(stdio.serve, build(json.load(file)))
