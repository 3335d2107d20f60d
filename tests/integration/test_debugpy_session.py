"""The session layer against real debugpy: bounds, the runInTerminal reverse request, state."""

from __future__ import annotations

import asyncio

from dap2mcp.adapters import Target
from dap2mcp.adapters.python import DEBUGPY
from dap2mcp.dap import DapClient, spawn_stdio
from dap2mcp.session import Debugger
from dap2mcp.session.breakpoints.specs import BreakpointSpec, Location

from conftest import INVOICE, PROGRAMS, marker

DEEP = PROGRAMS / "deep.py"


async def test_everything_an_agent_sees_is_bounded():
    debugger = Debugger()
    try:
        ctx = await debugger.debug(Target(mode="source", path=str(DEEP)), adapter=None,
                                   breakpoints=[BreakpointSpec(file=str(DEEP), line=marker(DEEP, "deep"))], timeout=30)
        assert ctx.state == "paused"
        assert len(ctx.frames) == 20 and ctx.totalFrames is not None and ctx.totalFrames > 40
        assert ctx.framesTruncated is True
        local = {v.name: v for v in ctx.scopes[0].variables}
        assert local["long_text"].valueTruncated is True and len(local["long_text"].value) <= 300
        assert local["many"].variablesReference  # expandable, not dumped
        small = await debugger.handle().context(None, None, max_frames=3)
        assert [f.function for f in small.frames] == ["marker", "recurse", "recurse"]

        ctx = await debugger.handle().continue_(None, Location(file=str(DEEP), line=marker(DEEP, "wide")), timeout=30)
        scope = ctx.scopes[0]
        assert scope.total == 60 and len(scope.variables) == 50 and scope.truncated is True
    finally:
        await debugger.close()


async def test_breakpoints_are_verified_and_moved_lines_reported():
    debugger = Debugger()
    try:
        await debugger.debug(Target(mode="source", path=str(INVOICE), stop_on_entry=True), adapter=None,
                             breakpoints=[], timeout=30)
        view = await debugger.handle().add_breakpoint(BreakpointSpec(file=str(INVOICE), line=marker(INVOICE, "loop")))
        assert view.verified is True and view.line == marker(INVOICE, "loop")
        views = debugger.pick().breakpoints.views()
        assert [v.id for v in views] == [view.id]
        assert await debugger.handle().clear_breakpoints(str(INVOICE), None, False) == [view.id]
        assert debugger.pick().breakpoints.views() == []
    finally:
        await debugger.close()


async def test_run_in_terminal_reverse_request_with_real_debugpy():
    """With console=integratedTerminal, debugpy asks the client to start the debuggee."""
    plan = DEBUGPY.plan(Target(mode="source", path=str(INVOICE), args=("0",)))
    arguments = {**plan.arguments, "console": "integratedTerminal"}
    client = DapClient(await spawn_stdio(plan.argv))
    seen: list[str] = []
    printed: list[str] = []
    terminated = asyncio.Event()
    client.on_event(lambda event, body: (seen.append(event), event == "terminated" and terminated.set()))
    client.terminal.sink = lambda category, text: printed.append(text)
    client.start()
    try:
        await client.request("initialize", {"adapterID": "debugpy", "supportsRunInTerminalRequest": True})
        launched = client.send("launch", arguments)
        while "initialized" not in seen:
            await asyncio.sleep(0.01)
        await client.request("configurationDone")
        await client.wait("launch", launched, 30)
        await asyncio.wait_for(terminated.wait(), 30)  # a hang guard: the program runs for a second
        assert client.terminal.processes, "debugpy did not send runInTerminal"
        assert "invoice total: 30.00" in "".join(printed)
    finally:
        await client.close()
    assert all(p.returncode is not None for p in client.terminal.processes)


async def test_interpreter_not_found_is_a_clear_error():
    debugger = Debugger()
    try:
        await debugger.debug(Target(mode="source", path=str(INVOICE), python="/no/such/python"), adapter=None,
                             breakpoints=[], timeout=5)
    except Exception as exc:  # noqa: BLE001 - the error model is what is checked
        assert getattr(exc, "code", None) == "INVALID_ARGUMENT" and "/no/such/python" in str(exc)
    else:
        raise AssertionError("expected INVALID_ARGUMENT")
    assert not debugger.has_session
