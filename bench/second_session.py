"""What a second session costs: its start time beside a session already paused, against the first's on
an idle server, and the memory it adds (the server's own, and the adapter and program it starts).

Run:  .venv/bin/python bench/second_session.py [--rounds 7] [--json FILE]

Each round starts one `dap2mcp serve` over stdio (the SDK's client), then `debug`s bench/programs/loop.py
to its breakpoint three times in a row, leaving each session paused: the first session, the second beside
it, a third beside both. Timed: each `debug` call, from the request to the answer holding the stop.
Measured after each start: the resident memory (RSS) of the server process itself, and of every process
below it (debugpy's adapter and launcher, the program). Printed: per session (1st, 2nd, 3rd), the median
start time and the median memory each added, and the ratio of the second's start to the first's.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psutil
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from benchkit import kill_leftovers, machine, marked_line, write_json

HERE = Path(__file__).resolve().parent
PROGRAM = HERE / "programs" / "loop.py"
MARKER = "the benchmark's breakpoint"
SESSIONS = 3


def memory(server_pid: int) -> tuple[int, int]:
    """RSS in bytes of the server itself, and of every process below it."""
    server = psutil.Process(server_pid)
    below = 0
    for child in server.children(recursive=True):
        try:
            below += child.memory_info().rss
        except psutil.Error:
            continue
    return server.memory_info().rss, below


def server_pid() -> int:
    me = psutil.Process()
    found = [p for p in me.children(recursive=True) if "serve" in " ".join(p.cmdline()) and "dap2mcp" in " ".join(p.cmdline())]
    return found[0].pid


async def one_round(line: int) -> list[dict[str, Any]]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve"], cwd=str(HERE))
    rows = []
    async with Client(params) as client:
        pid = server_pid()
        before = memory(pid)
        for n in range(SESSIONS):
            began = time.perf_counter()
            result = await client.call_tool("debug", {"mode": "source", "path": str(PROGRAM),
                                                      "breakpoints": [{"file": str(PROGRAM), "line": line}]})
            took = time.perf_counter() - began
            data = result.structured_content or {}
            assert data.get("state") == "paused" and data.get("sessionId") == f"s{n + 1}", data
            await asyncio.sleep(0.3)  # the processes' memory settles
            after = memory(pid)
            rows.append({"session": n + 1, "start_ms": took * 1000, "server_mb": (after[0] - before[0]) / 2**20,
                         "processes_mb": (after[1] - before[1]) / 2**20})
            before = after
        await client.call_tool("stop", {"all": True})
    return rows


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json")
    options = parser.parse_args()
    line = marked_line(PROGRAM, MARKER)
    rounds = []
    for _ in range(options.rounds):
        rounds.append(await one_round(line))
        kill_leftovers()
    print(f"{options.rounds} rounds, {SESSIONS} sessions each; medians")
    print(f"{'session':>8} {'start ms':>9} {'server +MB':>11} {'adapter+program +MB':>20}")
    summary = []
    for n in range(SESSIONS):
        of = [r[n] for r in rounds]
        row = {key: statistics.median(r[key] for r in of) for key in ("start_ms", "server_mb", "processes_mb")}
        summary.append(row)
        print(f"{n + 1:>8} {row['start_ms']:>9.0f} {row['server_mb']:>11.1f} {row['processes_mb']:>20.1f}")
    ratios = [r[1]["start_ms"] / r[0]["start_ms"] for r in rounds]
    print(f"second start / first start: {statistics.median(ratios):.2f} (median of each round's ratio)")
    write_json(options.json, {"machine": machine("mcp", "debugpy"), "rounds": rounds, "summary": summary})


if __name__ == "__main__":
    asyncio.run(main())
