"""Which files debugpy is told are the program's own: one list, whoever adds to it (pure, on debugpy's
profile data and a recorder in place of the adapter)."""

from __future__ import annotations

from typing import Any

from dap2mcp.adapters.python import DEBUGPY
from dap2mcp.dap import bodies
from dap2mcp.session.breakpoints.registry import BreakpointRegistry
from dap2mcp.session.breakpoints.specs import BreakpointSpec


def own_files(sent: list[tuple[str, dict[str, Any]]]) -> list[str]:
    command, arguments = [call for call in sent if call[0] == "setPydevdSourceMap"][-1]
    return [m["runtimeSource"]["path"] for m in arguments["pydevdSourceMaps"]]


async def test_a_breakpoint_set_while_a_pause_lands_in_library_code_keeps_both_and_the_pause_ends_clean(tmp_path):
    """A pause inside library code makes the files on the stacks the program's own for a moment; a breakpoint
    set meanwhile in another library file must not take that away, nor the pause's end take the breakpoint's."""
    sent: list[tuple[str, dict[str, Any]]] = []

    async def request(command: str, arguments: dict[str, Any]) -> Any:
        sent.append((command, arguments))
        return bodies.response(command, {"breakpoints": [{"verified": True, "line": 3}]} if command == "setBreakpoints" else {})

    registry = BreakpointRegistry(DEBUGPY, [], capabilities=lambda: {})
    decoder = tmp_path / "decoder.py"
    decoder.write_text("import re\n\ndef decode(s):\n    return s\n")
    await registry.own_code_for_now(request, ["/lib/server.py"])
    bp = registry.register(BreakpointSpec(file=str(decoder), line=3), None)
    await registry.sync(request, [bp])
    assert own_files(sent) == [str(decoder), "/lib/server.py"]
    await registry.own_code_as_before(request)
    assert own_files(sent) == [str(decoder)]
