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


def stops_read_ahead(trace: Path) -> tuple[int, int, int]:
    """From the DAP trace: (stops whose scopes request went out before their stack answer came; of those,
    the ones whose guess missed, the scopes asked for not being the top frame's; and the ones whose
    answers were used, no second scopes request following before the next stack request)."""
    ahead = missed = used = 0
    stack_seq: int | None = None  # the last stackTrace sent, until its answer comes
    asked: int | None = None  # the frame of the scopes request sent before that answer
    scopes_sent = 0  # scopes requests since the last stackTrace

    def close() -> None:
        nonlocal used
        used += asked is not None and scopes_sent == 1

    for line in trace.read_text().splitlines():
        entry = json.loads(line)
        message = entry["message"]
        command = message.get("command")
        if entry["dir"] == "sent" and command == "stackTrace":
            close()
            stack_seq, asked, scopes_sent = message["seq"], None, 0
        elif entry["dir"] == "sent" and command == "scopes":
            scopes_sent += 1
            if stack_seq is not None and asked is None:
                asked = message["arguments"]["frameId"]
        elif entry["dir"] == "received" and stack_seq is not None and message.get("request_seq") == stack_seq:
            if asked is not None:
                ahead += 1
                missed += asked != message["body"]["stackFrames"][0]["id"]
            else:
                scopes_sent = 0
            stack_seq = None
    close()
    return ahead, missed, used


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
    ahead, missed, used = stops_read_ahead(Path(os.environ[TRACE_ENV]))
    assert ahead >= STOPS, f"only {ahead} of {STOPS} stops were read ahead"
    assert used == ahead - missed, f"{ahead - missed} guesses held, the answers of {used} were used"
    if misses:
        assert 3 <= missed <= STOPS // 2, f"{missed} of {ahead} guesses missed"
    else:  # frames numbered by position: every guess holds
        assert missed == 0, f"{missed} of {ahead} guesses missed"
