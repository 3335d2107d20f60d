"""Two things the SDK does on every call that dap2mcp turns off, each costing a `step` time (bench/README.md):
the OpenTelemetry span around each request when nobody collects spans, and the check of each result against the
model it was just dumped from. What must stay: spans when a tracer provider is set, and the published schemas."""

from __future__ import annotations

import subprocess
import sys

from mcp import Client
from mcp.server._otel import OpenTelemetryMiddleware
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata

from dap2mcp.server import build_server

from conftest import INVOICE, marker


def _span_wrappers(server: object) -> int:
    return sum(isinstance(m, OpenTelemetryMiddleware) for m in server._lowlevel_server.middleware)  # type: ignore[attr-defined]


def test_no_span_around_requests_when_nobody_collects_spans():
    assert _span_wrappers(build_server()) == 0


def test_spans_stay_when_a_tracer_provider_is_set():
    # The global provider can be set once per process: a process of its own.
    code = ("from opentelemetry import trace; from opentelemetry.trace import NoOpTracerProvider; "
            "trace.set_tracer_provider(NoOpTracerProvider()); "
            "from mcp.server._otel import OpenTelemetryMiddleware; from dap2mcp.server import build_server; "
            "print(sum(isinstance(m, OpenTelemetryMiddleware) for m in build_server()._lowlevel_server.middleware))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


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
