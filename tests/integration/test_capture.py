"""Capturing snapshots against real debugpy: the one-request helper sees exactly what DAP requests see."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from dap2mcp.adapters import Target
from dap2mcp.session import Debugger
from dap2mcp.session.breakpoints.specs import BreakpointSpec

from conftest import PROGRAMS, marker

SHAPES = PROGRAMS / "shapes.py"


async def test_the_capture_helper_matches_request_by_request_in_one_request():
    debugger = Debugger()
    try:
        await debugger.debug(Target(mode="source", path=str(SHAPES)), adapter=None,
                             breakpoints=[BreakpointSpec(file=str(SHAPES), line=marker(SHAPES, "here"))], timeout=30)
        session = debugger.pick()
        recorder = session.recorder
        sent: Counter[str] = Counter()
        request = session.request

        async def counting(command: str, arguments: dict[str, Any] | None = None, timeout: float = 10.0) -> Any:
            sent[command] += 1
            return await request(command, arguments, timeout)

        session.request = counting  # type: ignore[method-assign]
        captured = {}
        for one_request in (True, False):
            recorder.capture_limits = dataclasses.replace(recorder.capture_limits, one_request=one_request)
            sent.clear()
            snapshot, _ = await debugger.handle().snapshot_create(None, None, 0, 4)
            captured[one_request] = (snapshot, dict(sent))

        (helped, helped_sent), (plain, plain_sent) = captured[True], captured[False]
        assert helped_sent.get("evaluate") == 1 and helped_sent.get("variables", 0) <= 2  # the frame's own scope
        assert plain_sent.get("variables", 0) > 20 and "evaluate" not in plain_sent
        assert helped.variable_count == plain.variable_count > 1000
        assert [n.id for n in helped.nodes.values()] == [n.id for n in plain.nodes.values()]
        assert helped.roots == plain.roots  # names, types, values, flags and hashes, node for node

        nodes = helped.nodes
        assert nodes["chain.next.next"].flags == ("cycle",)
        assert nodes["many"].flags == ("truncated",) and len(nodes["many"].children) == 500
        assert "long_list[98]" in nodes and "long_list.more" in nodes  # pydevd pages long lists by 100
        assert nodes['keys["a"]'].value == "1" and nodes["point.x"].value == "1"
        assert {"chain._protected", "chain.kind", "chain.doubled"} <= set(nodes)
        dunder = [n.id for n in nodes.values() if n.name.startswith("__") and n.name.endswith("__")]
        assert dunder == []  # pydevd groups them apart ("special variables"): not the object's own state
    finally:
        await debugger.close()


HOSTILE = PROGRAMS / "hostile.py"


async def capture_both(debugger: Debugger, depth: int) -> tuple[Any, Any, Counter[str]]:
    recorder = debugger.pick().recorder
    sent: Counter[str] = Counter()
    request = debugger.pick().request

    async def counting(command: str, arguments: dict[str, Any] | None = None, timeout: float = 10.0) -> Any:
        sent[command] += 1
        return await request(command, arguments, timeout)

    debugger.pick().request = counting  # type: ignore[method-assign]
    recorder.capture_limits = dataclasses.replace(recorder.capture_limits, one_request=True)
    helped, _ = await debugger.handle().snapshot_create(None, None, 0, depth)
    recorder.capture_limits = dataclasses.replace(recorder.capture_limits, one_request=False)
    plain, _ = await debugger.handle().snapshot_create(None, None, 0, depth)
    debugger.pick().request = request  # type: ignore[method-assign]
    return helped, plain, sent


async def test_frames_that_rebind_exec_or_locals_are_captured_without_the_helper():
    debugger = Debugger()
    try:
        await debugger.debug(Target(mode="source", path=str(HOSTILE)), adapter=None,
                             breakpoints=[BreakpointSpec(file=str(HOSTILE), line=marker(HOSTILE, "shadow"))], timeout=30)
        helped, plain, sent = await capture_both(debugger, 2)
        assert "evaluate" not in sent  # the helper would have called the program's own `exec`
        assert helped.roots == plain.roots and 'data["value"][1]' in helped.nodes
        assert "FIRST_REFERENCE" not in debugger.pick().output.read(0, 100_000).text
    finally:
        await debugger.close()


async def test_long_values_are_clipped_in_the_debuggee_and_an_oversized_reply_falls_back():
    debugger = Debugger()
    try:
        await debugger.debug(Target(mode="source", path=str(HOSTILE)), adapter=None,
                             breakpoints=[BreakpointSpec(file=str(HOSTILE), line=marker(HOSTILE, "long"))], timeout=30)
        helped, plain, sent = await capture_both(debugger, 1)  # 100 values of 40,000 characters
        assert sent["evaluate"] == 1 and helped.roots == plain.roots
        assert helped.nodes['texts["t0"]'].flags == ("valueTruncated",)
        recorder = debugger.pick().recorder
        recorder._helper = (recorder._helper or "").replace("MAX_REPLY = 8 * 1024 * 1024", "MAX_REPLY = 1000")
        tight, plain, sent = await capture_both(debugger, 1)
        assert sent["evaluate"] == 1 and sent["variables"] > 1  # refused by the helper, then request by request
        assert tight.roots == plain.roots
    finally:
        await debugger.close()
