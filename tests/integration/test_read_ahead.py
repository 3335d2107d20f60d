"""Reading a stop ahead on the last stop's ids (`steady_ids`): what the read-ahead shows must be what a plain
read shows, whether the guess held or not. debugpy numbers frames by frame, so a step into or out of a call
misses; lldb-dap and Delve number them by position, so every guess holds and the order of the adapter's
answers is what keeps the variables right."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from dap2mcp.adapters import Target
from dap2mcp.dap.trace import TRACE_ENV
from dap2mcp.session import Debugger
from dap2mcp.session.models import Context

from conftest import PROGRAMS, marker

STOPS = 30
CASES = [  # program, adapter, whether some guesses must miss
    pytest.param(PROGRAMS / "calls.py", None, True, id="debugpy"),
    pytest.param(PROGRAMS / "calls.c", "lldb", False, id="lldb"),
    pytest.param(PROGRAMS / "calls_go" / "main.go", "delve", False, id="delve"),
]


def next_move(turn: int, function: str) -> str:
    """Into the calls, along them and back out, never out of `top`."""
    moves = {"top": "in", "middle": "in" if turn % 3 else "over", "leaf": "over" if turn % 2 else "out"}
    return moves[function.removeprefix("main.")]


def seen(ctx: Context) -> dict[str, Any]:
    """What an agent reads of a stop, without the references (debugpy hands out new ones for children)."""
    return {
        "location": ctx.location.model_dump() if ctx.location else None,
        "frames": [(f.function, f.line) for f in ctx.frames or []],  # Delve numbers frames anew per request
        "scopes": [(s.name, [(v.name, v.value, v.type) for v in s.variables]) for s in ctx.scopes or []],
    }


def stops_read_ahead(trace: Path) -> tuple[int, int]:
    """(stops whose scopes request went out before their stack answer came, of those the ones whose guess
    missed: the scopes asked for were not the top frame's)."""
    ahead = missed = 0
    waiting: dict[int, str] = {}  # stackTrace seq -> state
    asked: int | None = None
    for line in trace.read_text().splitlines():
        entry = json.loads(line)
        message = entry["message"]
        if entry["dir"] == "sent" and message.get("command") == "stackTrace":
            waiting = {message["seq"]: "sent"}
            asked = None
        elif entry["dir"] == "sent" and message.get("command") == "scopes" and waiting and asked is None:
            asked = message["arguments"]["frameId"]
        elif entry["dir"] == "received" and message.get("request_seq") in waiting:
            if asked is not None:
                ahead += 1
                missed += asked != message["body"]["stackFrames"][0]["id"]
            waiting = {}
    return ahead, missed


@pytest.mark.parametrize(("program", "adapter", "misses"), CASES)
async def test_a_stop_read_ahead_shows_what_a_plain_read_shows(program: Path, adapter: str | None, misses: bool):
    debugger = Debugger()
    try:
        ctx = await debugger.debug(Target(mode="source", path=str(program)), adapter=adapter,
                                   breakpoints=[{"file": str(program), "line": marker(program, "top")}], timeout=180)
        functions = []
        for turn in range(STOPS):
            assert ctx.location is not None
            move = next_move(turn, ctx.location.function)
            ctx = await debugger.step(move, None, timeout=30)  # type: ignore[arg-type]
            assert ctx.state == "paused", (move, ctx)
            plain = await debugger.context(None, None, max_frames=19)  # not the stop's view: read afresh
            assert seen(ctx) == seen(plain), (turn, move)
            functions.append(ctx.location.function if ctx.location else None)
        assert {str(f).removeprefix("main.") for f in functions} == {"top", "middle", "leaf"}, functions
    finally:
        await debugger.close()
    ahead, missed = stops_read_ahead(Path(os.environ[TRACE_ENV]))
    assert ahead >= STOPS, f"only {ahead} of {STOPS} stops were read ahead"
    if misses:
        assert missed >= 3, "no step moved to another frame id: the missed guess was not tried"
