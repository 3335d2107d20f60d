"""Two things the SDK does on every call that dap2mcp skips, each costing a `step` time (bench/README.md): the
OpenTelemetry span around each request while nobody collects spans, and the check of each result against the
model it was just dumped from. What must stay: spans once a tracer provider is set, and the published schemas."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from mcp import Client
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata

from dap2mcp.server import build_server
from dap2mcp.server.sdk import OpenTelemetryMiddleware

from conftest import INVOICE, marker


async def test_no_span_is_made_while_nobody_collects_spans(monkeypatch):
    made: list[str] = []

    async def counted(self: OpenTelemetryMiddleware, ctx: Any, call_next: Any) -> Any:
        made.append(ctx.method)
        return await call_next(ctx)

    monkeypatch.setattr(OpenTelemetryMiddleware, "__call__", counted)
    async with Client(build_server()) as client:
        await client.call_tool("snapshot_list", {})
    assert made == []


SPANS = """
import asyncio, sys
from opentelemetry import trace
from opentelemetry.trace import NoOpTracer, NoOpTracerProvider
names = []
class Tracer(NoOpTracer):
    def start_span(self, name, *args, **kwargs):
        names.append(name)
        return super().start_span(name, *args, **kwargs)
class Provider(NoOpTracerProvider):
    def get_tracer(self, *args, **kwargs):
        return Tracer()
if sys.argv[1] == "before":
    trace.set_tracer_provider(Provider())
from mcp import Client
from dap2mcp.server import build_server
server = build_server()
if sys.argv[1] == "after":
    trace.set_tracer_provider(Provider())
async def main():
    async with Client(server) as client:
        await client.call_tool("snapshot_list", {})
asyncio.run(main())
print(names)
"""


@pytest.mark.parametrize("provider_set", ["before", "after"])
def test_spans_are_made_once_a_tracer_provider_is_set(provider_set: str):
    """Set before the server is built (`opentelemetry-instrument`) or after it (a program embedding it):
    the global provider can be set once per process, so each case runs in a process of its own."""
    done = subprocess.run([sys.executable, "-c", SPANS, provider_set], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "tools/call snapshot_list" in done.stdout, done.stdout


async def test_results_are_not_checked_again_and_schemas_are_still_published(monkeypatch):
    def no_second_check(self: FuncMetadata, model: object) -> object:
        raise AssertionError(f"the SDK checked a result against {model} again")

    server = build_server()  # the schemas come from the models here, once
    monkeypatch.setattr(FuncMetadata, "_output_adapter", no_second_check)
    async with Client(server) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert all(tool.output_schema for tool in listed.values())
        assert "scopes" in listed["step"].output_schema["properties"]
        line = marker(INVOICE, "loop")
        started = await client.call_tool("debug", {"mode": "source", "path": str(INVOICE),
                                                   "breakpoints": [{"file": str(INVOICE), "line": line}]})
        assert not started.is_error, started.structured_content
        assert started.structured_content["location"]["line"] == line
        stepped = await client.call_tool("step", {"mode": "over"})  # the SDK client checks it against the schema
        assert not stepped.is_error and stepped.structured_content["state"] == "paused"
        stopped = await client.call_tool("stop", {})
        assert stopped.structured_content["state"] == "terminated"
