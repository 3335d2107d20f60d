"""A Node program's output under js-debug (issue 35 point 8): logpoints' messages alone, in the main thread and in
a worker thread, and a flood of console.log read whole and in order from the program's pipes.

The program's console writes straight to its pipes (adapters/node_console.cjs), and js-debug's logpoints, which
are console.log calls in the program, print there too: dap2mcp takes them out of the output by their tag. How
fast a flood is, is measured by bench/node_output.py, not here.
"""

from __future__ import annotations

from conftest import PROGRAMS, ROOT, marker, stdio_tools

LOGPOINTS = PROGRAMS / "logpoints.js"
FLOOD = ROOT / "bench" / "programs" / "flood.js"  # the benchmark's program: N numbered lines
FLOOD_LINES = 200_000


async def test_logpoints_in_the_program_and_its_worker_thread_show_the_message_only():
    async with stdio_tools() as tools:
        place = {"file": str(LOGPOINTS), "line": marker(LOGPOINTS, "tick")}
        end = await tools.ok("debug", mode="source", path=str(LOGPOINTS),
                             breakpoints=[{**place, "logMessage": "{who} says i={i}"}])
        assert end["state"] == "terminated" and end["exitCode"] == 0, end
        lines = (await tools.ok("output", sessionId=end["sessionId"]))["text"].splitlines()
        main = [f"main prints {i}\n'main' says i={i}".split("\n") for i in range(3)]
        assert lines[:6] == [line for pair in main for line in pair], lines  # in the order the program ran them
        assert lines[6:] == ["'worker' says i=0", "'worker' says i=1"], lines  # no tag, no junk before it
        sessions = (await tools.ok("info", type="sessions"))["items"]
        counted = {}
        for session in sessions:  # each hit is counted by the session whose thread logged it
            bp = await tools.ok("breakpoint", id=1, sessionId=session["sessionId"])
            counted[session["sessionId"]] = bp["hitCount"]
        assert sorted(counted.values())[-2:] == [2, 3], (sessions, counted)
        await tools.ok("stop", all=True)


async def test_a_flood_of_console_log_arrives_whole_and_in_order():
    async with stdio_tools() as tools:
        end = await tools.ok("debug", mode="source", path=str(FLOOD), args=[str(FLOOD_LINES), "log"], timeout=60)
        assert end["state"] == "terminated" and end["exitCode"] == 0, end
        pages, offset = [], 0
        while True:
            page = await tools.ok("output", sessionId=end["sessionId"], offset=offset, limit=30_000)
            pages.append(page)
            if page["nextOffset"] >= page["end"]:
                break
            offset = page["nextOffset"]
        # the buffer keeps the last 1,000,000 to 2,000,000 characters (docs/limits.md): what went first is counted
        kept, dropped = "".join(p["text"] for p in pages), pages[0].get("dropped", 0)
        printed = "".join(f"line {n}\n" for n in range(FLOOD_LINES))
        assert len(kept) >= 1_000_000 and dropped == len(printed) - len(kept), (len(kept), dropped)
        assert kept == printed[dropped:]  # every line after those, in order
        await tools.ok("stop", all=True)
