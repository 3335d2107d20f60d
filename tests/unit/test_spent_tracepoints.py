"""A tracepoint that has used up its `maxNotifications`: removed from the adapter at once where the adapter takes
changes while the program runs, else left as it is (its messages dropped, uncounted) until the program has
stopped (pure, on the profiles' data and a recorder in place of the adapter; tests/e2e/test_tracepoints_spent.py
holds it against the real adapters)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dap2mcp.adapters import AdapterProfile
from dap2mcp.adapters.native import GDB, LLDB
from dap2mcp.adapters.python import DEBUGPY
from dap2mcp.dap import bodies
from dap2mcp.session.breakpoints.registry import BreakpointRegistry
from dap2mcp.session.breakpoints.specs import BreakpointSpec


class Adapter:
    """Answers every request; keeps the lines of each `setBreakpoints` list it was sent."""

    def __init__(self) -> None:
        self.sent: list[list[int]] = []

    async def __call__(self, command: str, arguments: dict[str, Any]) -> Any:
        """The answer typed, as the link types it (`bodies.response`)."""
        if command != "setBreakpoints":
            return bodies.response(command, {})
        lines = [bp["line"] for bp in arguments["breakpoints"]]
        self.sent.append(lines)
        return bodies.response(command, {"breakpoints": [{"verified": True, "line": line, "id": line} for line in lines]})


def logged(registry: BreakpointRegistry, profile: AdapterProfile, bp_id: int, text: str) -> str:
    """A tracepoint's message as the adapter writes it: behind the tag naming its breakpoint."""
    mark = profile.breakpoints.log_tag
    return f"{mark}{registry.nonce}:{bp_id}{mark}{text}\n"


async def spent_while_running(profile: AdapterProfile, tmp_path: Path) -> tuple[BreakpointRegistry, Adapter]:
    request = Adapter()
    source = tmp_path / "loop.c"
    source.write_text("int main(void) {\n    for (int i = 0; i < 9; i++)\n        ;\n    return 0;\n}\n")
    registry = BreakpointRegistry(profile, [], capabilities=lambda: {"supportsLogPoints": True})
    bp = registry.register(BreakpointSpec(file=str(source), line=3, logMessage="tick", maxNotifications=2), None)
    stop = registry.register(BreakpointSpec(file=str(source), line=4), None)
    await registry.sync(request, [bp, stop])
    for _ in range(2):
        assert registry.take_tracepoint(logged(registry, profile, bp.id, "tick")) == (bp, "tick\n")
    assert bp.exhausted
    await registry.spend(request, bp, running=True)
    return registry, request


@pytest.mark.parametrize("profile", [LLDB, GDB], ids=lambda profile: profile.name)
async def test_where_the_adapter_takes_no_change_while_the_program_runs_it_waits_for_the_stop(profile, tmp_path):
    registry, request = await spent_while_running(profile, tmp_path)
    assert request.sent == [[3, 4]]  # nothing sent while the program runs
    [bp, _] = registry.all()
    assert registry.take_tracepoint(logged(registry, profile, bp.id, "tick")) == (None, "")  # dropped, not counted
    assert (bp.hit_count, bp.notifications_sent, bp.state) == (2, 2, "exhausted")
    await registry.drop_spent(request)  # the program has stopped: about to run again
    assert request.sent == [[3, 4], [4]]
    await registry.drop_spent(request)
    assert request.sent == [[3, 4], [4]]  # once


async def test_where_the_adapter_takes_changes_while_the_program_runs_it_goes_at_once(tmp_path):
    registry, request = await spent_while_running(DEBUGPY, tmp_path)
    assert request.sent == [[3, 4], [4]]
    await registry.drop_spent(request)
    assert request.sent == [[3, 4], [4]]


async def test_spent_while_the_program_is_stopped_it_goes_at_once(tmp_path):
    request = Adapter()
    source = tmp_path / "loop.c"
    source.write_text("int main(void) {\n    return 0;\n}\n")
    registry = BreakpointRegistry(LLDB, [], capabilities=lambda: {"supportsLogPoints": True})
    bp = registry.register(BreakpointSpec(file=str(source), line=2, logMessage="x", maxNotifications=1), None)
    assert registry.take_tracepoint(logged(registry, LLDB, bp.id, "x"))[0] is bp
    await registry.spend(request, bp, running=False)
    assert request.sent == [[]]
