"""MCP resources over stdio with the SDK's client, in both protocol versions."""

from __future__ import annotations

import json
from typing import Any

import psutil
import pytest
from mcp import Client

from conftest import PROGRAMS, Endpoint, Tools, connect, marker, stdio_tools

COUNTER = PROGRAMS / "counter.py"
SPIN = PROGRAMS / "spin.py"
URIS = ["debugger://session", "debugger://breakpoints", "debugger://threads", "debugger://snapshots",
        "debugger://output", "debugger://sessions"]
BREAKPOINT_FIELDS = {"id", "type", "file", "line", "column", "enabled", "verified", "state", "hitCount", "condition",
                     "logMessage", "hitCountMultiple", "maxNotifications", "notificationsSent"}
MODES = ["legacy", "2026-07-28"]


async def read(client: Client, uri: str) -> dict[str, Any]:
    result = await client.read_resource(uri)
    assert result.contents[0].mime_type == "application/json"
    return json.loads(result.contents[0].text)


@pytest.mark.parametrize("mode", MODES)
async def test_resources_exist_with_a_session_and_hold_the_seed_fields(mode: str, endpoint: Endpoint):
    async with endpoint.client(mode) as client:
        tools = Tools(client)
        assert (await client.list_resources()).resources == []
        assert (await client.list_resource_templates()).resource_templates == []
        await tools.ok("debug", mode="source", path=str(COUNTER), args=["9"],
                       breakpoints=[{"file": str(COUNTER), "line": marker(COUNTER, "work")}])
        listed = (await client.list_resources()).resources
        assert [str(r.uri) for r in listed] == URIS
        assert all(r.name and r.description and r.mime_type == "application/json" for r in listed)

        session = await read(client, "debugger://session")
        assert set(session) == {"processId", "processName", "executablePath", "runtimeVersion", "interpreter", "state",
                                "launchMode", "attachedAt", "pauseReason", "currentLocation", "activeThreadId",
                                "commandLineArgs", "workingDirectory"}
        assert psutil.Process(session["processId"]).is_running()
        assert session["state"] == "Paused" and session["launchMode"] == "Launch"
        assert session["pauseReason"] == "Breakpoint" and session["commandLineArgs"] == ["9"]
        assert session["runtimeVersion"].startswith("Python 3.")
        assert session["currentLocation"] == {"file": str(COUNTER), "line": marker(COUNTER, "work"), "column": 1,
                                              "functionName": "work", "moduleName": None}

        tracer = await tools.ok("breakpoint", file=str(COUNTER), line=marker(COUNTER, "loop"), logMessage="{i}",
                                maxNotifications=4)
        every = await tools.ok("breakpoint", file=str(COUNTER), line=marker(COUNTER, "end"), hitCondition="% 3")
        errors = await tools.ok("breakpoint", exception="raised", exceptionTypes=["KeyError"])
        document = await read(client, "debugger://breakpoints")
        by_id = {b["id"]: b for b in document["breakpoints"]}
        assert all(set(b) >= BREAKPOINT_FIELDS for b in by_id.values())
        assert by_id[tracer["id"]]["type"] == "Tracepoint" and by_id[tracer["id"]]["maxNotifications"] == 4
        assert by_id[every["id"]]["hitCountMultiple"] == 3 and by_id[1]["hitCount"] == 1
        exceptions = {e["filter"]: e for e in document["exceptionBreakpoints"]}
        assert exceptions["raised"]["id"] == errors["id"] and exceptions["raised"]["exceptionType"] == "KeyError"
        assert exceptions["uncaught"]["default"] is True  # the adapter's own, always on

        threads = await read(client, "debugger://threads")
        assert threads["stale"] is False and threads["threads"][0]["isCurrent"] is True
        assert threads["threads"][0]["location"]["functionName"] == "work"
        assert (await read(client, "debugger://snapshots"))["stops"] == {"first": 1, "last": 1}

        await tools.ok("stop")
        assert (await client.list_resources()).resources == []


@pytest.mark.parametrize("mode", MODES)
async def test_threads_are_served_stale_from_the_last_stop_while_running(mode: str):
    async with connect("stdio", mode) as client:
        tools = Tools(client)
        await tools.ok("debug", mode="source", path=str(SPIN), stopOnEntry=True)
        paused = await read(client, "debugger://threads")
        assert paused["stale"] is False
        assert (await tools.ok("continue", timeout=0.3))["state"] == "running"
        running = await read(client, "debugger://threads")
        assert running["stale"] is True and running["capturedAt"] == paused["capturedAt"]
        assert running["threads"] == paused["threads"]
        session = await read(client, "debugger://session")
        assert session["state"] == "Running" and session["currentLocation"] is None
        with pytest.raises(Exception, match="Unknown resource"):
            await client.read_resource("debugger://nothing")
        assert (await read(client, "debugger://session"))["state"] == "Running"  # still answering


async def test_the_session_resource_names_the_program_and_its_directory_absolutely():
    """Resources keep absolute paths: a program given relative to `cwd` is named whole, and a launch given no
    `cwd` names the directory it ran in, not null (found by an exploratory user)."""
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=COUNTER.name, cwd=str(PROGRAMS), args=["2"],
                       breakpoints=[{"file": COUNTER.name, "line": marker(COUNTER, "work")}])
        session = await tools.read_json("debugger://session")
        assert (session["executablePath"], session["workingDirectory"]) == (str(COUNTER), str(PROGRAMS)), session
        await tools.ok("stop")
        await tools.ok("debug", mode="source", path=str(COUNTER), args=["2"],
                       breakpoints=[{"file": str(COUNTER), "line": marker(COUNTER, "work")}])
        session = await tools.read_json("debugger://session")
        assert session["workingDirectory"] and session["workingDirectory"].startswith("/"), session
        await tools.ok("stop")
