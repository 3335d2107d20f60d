"""Soak: thousands of steps on one session, with the context and automatic snapshot of every stop.

Run:  .venv/bin/python bench/soak.py [--steps 2000] [--warmup 200] [--json FILE]

A real MCP client over stdio drives `dap2mcp serve` through bench/programs/loop.py (a loop of a
million turns) and steps over, again and again. Every 100 steps it reads the server's resident
memory (RSS, from /proc through psutil); every step is timed. It prints the RSS after the warm-up
and at the end, the growth between them, and the median step time of each block of steps, so a
leak or a slowdown shows as a trend.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psutil
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from benchkit import kill_leftovers, machine, marked_line, write_json

PROGRAM = Path(__file__).resolve().parent / "programs" / "loop.py"
BLOCK = 200


def server_process() -> psutil.Process:
    me = psutil.Process()
    return next(p for p in me.children(recursive=True) if "dap2mcp" in " ".join(p.cmdline()))


async def soak(steps: int, warmup: int) -> dict[str, Any]:
    line = marked_line(PROGRAM, "the benchmark's breakpoint")
    params = StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve"])
    times: list[float] = []
    rss: list[tuple[int, int]] = []
    async with Client(params) as client:
        server = server_process()
        result = await client.call_tool("debug", {"mode": "source", "path": str(PROGRAM),
                                                  "breakpoints": [{"file": str(PROGRAM), "line": line}]})
        assert (result.structured_content or {}).get("state") == "paused", result.structured_content
        for n in range(1, steps + 1):
            started = time.perf_counter()
            data = (await client.call_tool("step", {"mode": "over"})).structured_content or {}
            times.append((time.perf_counter() - started) * 1000)
            if data.get("state") != "paused":
                raise RuntimeError(f"step {n} did not stop: {data}")
            if n % 100 == 0 or n == warmup:
                rss.append((n, server.memory_info().rss))
        snapshots = (await client.call_tool("snapshot_list", {})).structured_content or {}
        await client.call_tool("stop", {})
    after_warmup = next(value for n, value in rss if n == warmup)
    blocks = [round(statistics.median(times[i:i + BLOCK]), 2) for i in range(0, len(times), BLOCK)]
    return {
        "steps": steps, "warmup": warmup,
        "rss_mb": {str(n): round(value / 2**20, 1) for n, value in rss},
        "rss_growth_after_warmup_pct": round((rss[-1][1] - after_warmup) / after_warmup * 100, 1),
        "median_ms_per_block": blocks,
        "labelled_snapshots": snapshots.get("count"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--json")
    options = parser.parse_args()
    print(f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC  {machine('mcp', 'debugpy')}")
    data = asyncio.run(soak(options.steps, options.warmup))
    rss = data["rss_mb"]
    print(f"{data['steps']} steps; server RSS {rss[str(data['warmup'])]} MB after {data['warmup']} "
          f"(warm-up), {rss[str(data['steps'])]} MB at the end: {data['rss_growth_after_warmup_pct']:+.1f}%")
    print("RSS every 100 steps (MB):", " ".join(f"{v}" for v in rss.values()))
    print(f"median step ms per {BLOCK} steps:", " ".join(f"{v:.2f}" for v in data["median_ms_per_block"]))
    data["leftovers"] = kill_leftovers()
    write_json(options.json, {"machine": machine("mcp", "debugpy"), **data})


if __name__ == "__main__":
    main()
