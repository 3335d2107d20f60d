"""Reading a stop ahead on the last stop's ids (`steady_ids`): what the read-ahead shows must be what a plain
read shows, whether the guess held or not. debugpy numbers frames by frame, so a step into or out of a call
misses; lldb-dap and Delve number them by position, so every guess holds and the order of the adapter's
answers is what keeps the variables right."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from dap2mcp.adapters import Target
from dap2mcp.dap.trace import TRACE_ENV
from dap2mcp.session import Debugger
from dap2mcp.session.breakpoints.specs import BreakpointSpec
from dap2mcp.session.models import Context
from dap2mcp.session.stop.recorder import DEFAULT_FRAMES

from conftest import PROGRAMS, marker

STOPS = 30
CASES = [  # program, adapter, whether some guesses must miss, whether scopes are asked for ahead
    pytest.param(PROGRAMS / "calls.py", None, True, False, id="debugpy"),  # its scopes follow from the frame
    pytest.param(PROGRAMS / "calls.c", "lldb", False, True, id="lldb"),
    pytest.param(PROGRAMS / "calls_go" / "main.go", "delve", False, True, id="delve"),
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


@dataclass
class Reads:
    """How the stop recordings read their stops, from the DAP trace. A recording asks for DEFAULT_FRAMES
    frames; the test's plain reads ask for fewer, and are left out."""

    ahead: int = 0
    """Stops whose scopes or variables went out before their stack answer came."""
    missed: int = 0
    """Of those, the ones whose guess missed: the top frame is not the previous stop's."""
    used: int = 0
    """Of those, the ones whose answers were used: no scopes request followed the stack answer."""
    scopes_ahead: int = 0
    """Of those, the ones that sent a scopes request ahead too."""


def stop_reads(trace: Path) -> Reads:
    reads = Reads()
    stack_seq: int | None = None  # the recording's last stackTrace, until its answer comes
    sent_ahead: set[str] = set()  # commands sent between that stackTrace and its answer
    answered = False  # the recording's stack answer came; what follows until the next stackTrace is its own
    scopes_after = 0
    previous_top: int | None = None

    def close() -> None:
        if answered and sent_ahead:
            reads.used += scopes_after == 0

    for line in trace.read_text().splitlines():
        entry = json.loads(line)
        message = entry["message"]
        command = message.get("command")
        if entry["dir"] == "sent" and command == "stackTrace":
            close()
            answered = False
            if message["arguments"].get("levels") == DEFAULT_FRAMES:
                stack_seq, sent_ahead, scopes_after = message["seq"], set(), 0
        elif entry["dir"] == "sent" and command in ("scopes", "variables"):
            if stack_seq is not None:
                sent_ahead.add(command)
            elif answered and command == "scopes":
                scopes_after += 1
        elif entry["dir"] == "received" and stack_seq is not None and message.get("request_seq") == stack_seq:
            top = message["body"]["stackFrames"][0]["id"]
            if sent_ahead:
                reads.ahead += 1
                reads.missed += top != previous_top
                reads.scopes_ahead += "scopes" in sent_ahead
            previous_top, stack_seq, answered = top, None, True
    close()
    return reads


@pytest.mark.parametrize(("program", "adapter", "misses", "scopes_ahead"), CASES)
async def test_a_stop_read_ahead_shows_what_a_plain_read_shows(program: Path, adapter: str | None, misses: bool,
                                                               scopes_ahead: bool):
    debugger = Debugger()
    try:
        ctx = await debugger.debug(Target(mode="source", path=str(program)), adapter=adapter,
                                   breakpoints=[BreakpointSpec(file=str(program), line=marker(program, "top"))], timeout=180)
        functions = []
        for turn in range(STOPS):
            assert ctx.location is not None
            move = next_move(turn, ctx.location.function)
            ctx = await debugger.handle().step(move, None, timeout=30)  # type: ignore[arg-type]
            assert ctx.state == "paused", (move, ctx)
            plain = await debugger.handle().context(None, None, max_frames=19)  # not the stop's view: read afresh
            assert seen(ctx) == seen(plain), (turn, move)
            functions.append(ctx.location.function if ctx.location else None)
        assert {str(f).removeprefix("main.") for f in functions} == {"top", "middle", "leaf"}, functions
    finally:
        await debugger.close()
    reads = stop_reads(Path(os.environ[TRACE_ENV]))
    assert reads.ahead >= STOPS, f"only {reads.ahead} of {STOPS} stops were read ahead"
    assert reads.used == reads.ahead - reads.missed, f"{reads.ahead - reads.missed} guesses held, the answers of {reads.used} were used"
    if misses:
        assert 3 <= reads.missed <= STOPS // 2, f"{reads.missed} of {reads.ahead} guesses missed"
    else:  # frames numbered by position: every guess holds
        assert reads.missed == 0, f"{reads.missed} of {reads.ahead} guesses missed"
    # where scopes follow from the frame (debugpy), a stop in the last stop's frame asks for none at all
    assert reads.scopes_ahead == (reads.ahead if scopes_ahead else 0), reads
