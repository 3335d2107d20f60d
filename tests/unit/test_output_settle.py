"""How long a result waits for output still on its way depends on the pauses the program's output makes,
not on the waits between results (dap2mcp's own settling, the agent's turn, a paused program)."""

from __future__ import annotations

import asyncio

from dap2mcp.session.output.buffer import SETTLE_PAUSE, OutputBuffer


async def test_a_pause_within_a_burst_lengthens_the_wait():
    out = OutputBuffer()
    out.append("stdout", "line 1\n")
    await asyncio.sleep(0.1)
    out.append("stdout", "line 2\n")
    assert out.settle_pause >= 0.2  # twice the pause the flood made


async def test_the_wait_before_a_result_is_no_pause_of_the_next_burst():
    """Each step of a loop that prints a line: the time between one step's line and the next step's (the
    agent's turn, the last answer's settling) counted as a pause of the output, and every answer waited
    longer than the last, up to half a second a step."""
    out = OutputBuffer()
    for step in range(4):
        out.append("stdout", f"line {step}\n")
        assert out.settle_pause == SETTLE_PAUSE[0], step
        out.take_new(8000)
        await asyncio.sleep(0.1)


async def test_an_evaluations_printing_starts_a_burst_of_its_own():
    out = OutputBuffer()
    out.append("stdout", "before\n")
    start = out.size
    await asyncio.sleep(0.1)
    out.append("stdout", "printed by the evaluation\n")
    out.take_from(start, 8000)
    await asyncio.sleep(0.1)
    out.append("stdout", "printed by the next one\n")
    assert out.settle_pause == SETTLE_PAUSE[0]
