"""A Node program's output flood: the program alone against the same program under dap2mcp (js-debug).

Run:  .venv/bin/python bench/node_output.py [--lines 50000] [--rounds 5] [--how log,write] [--json FILE]

bench/programs/flood.js prints `--lines` numbered lines, by `console.log` (`log`) or `process.stdout.write`
(`write`). Each round times, for each way, in an order rotating every round so load from elsewhere on the
machine falls on all alike:

  alone    `node flood.js N how` with its stdout and stderr on pipes this process reads to the end: from the
           start to its exit with every byte read.
  dap2mcp  `debug {path: flood.js, args: [N, how]}` through a thin MCP client (bench/wire_client.py) to one
           `dap2mcp serve` over stdio, kept across rounds: from the call to the answer that holds the program's
           end (js-debug started, the program launched and run to its exit, its output in). The session's
           whole output is then read back with the `output` tool, untimed, and checked: the last line is there,
           the lines kept are consecutive and in order (the buffer keeps the last ~1,000,000 characters).

A third way, `start`, runs flood.js printing nothing: what starting costs, alone (node's own start) and under
dap2mcp (js-debug's server, its launch, the program under the inspector, its end), whatever the program prints.

Printed: the median and spread of each, the ratio of the medians and the median of each round's own ratio; and
the ratio of the flood's own part, each median less its `start` median: what printing the lines adds under
dap2mcp against what it takes alone. The target of issue 35 point 8 (at most 2x the program alone for both ways
at 50,000 lines) is read on that part: the fixed ~1.2 s of starting js-debug is more than the program alone takes.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import re
import shutil
import statistics
import sys
import time
from pathlib import Path

from benchkit import kill_leftovers, machine, write_json
from wire_client import WireClient

HERE = Path(__file__).resolve().parent
PROGRAM = HERE / "programs" / "flood.js"
WAYS = ("log", "write")
START = "start"
"""The way that prints nothing (flood.js with 0 lines): the cost of starting, to take off the others."""
TIMEOUT = 120
PAGE = 100_000
"""The `output` tool's largest page."""
TARGET_RATIO = 2.0


async def alone(node: str, lines: int, how: str) -> float:
    """Seconds from the start of `node flood.js` to its exit, its output read to the end."""
    started = time.perf_counter()
    lines = 0 if how == START else lines
    process = await asyncio.create_subprocess_exec(node, str(PROGRAM), str(lines), how, cwd=str(HERE),
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, _ = await process.communicate()
    took = time.perf_counter() - started
    if process.returncode != 0 or (printed := out.count(b"\n")) != lines:
        raise RuntimeError(f"alone: exit {process.returncode}, {printed} lines of {lines}")
    return took


async def read_output(client: WireClient) -> str:
    """The session's whole output as the `output` tool pages it (what the buffer kept of it)."""
    pieces, offset = [], 0
    while True:
        page = await client.call_tool("output", {"offset": offset, "limit": PAGE})
        pieces.append(page["text"])
        if page["nextOffset"] >= page["end"]:
            return "".join(pieces)
        offset = page["nextOffset"]


def check(text: str, lines: int) -> None:
    """The kept lines are the last ones, consecutive and in order: nothing lost, nothing swapped."""
    numbers = [int(found) for found in re.findall(r"^line (\d+)$", text, re.MULTILINE)]
    if not numbers or numbers[-1] != lines - 1 or numbers != list(range(numbers[0], lines)):
        raise RuntimeError(f"dap2mcp: {len(numbers)} lines kept, from {numbers[:1]} to {numbers[-1:]}, "
                           f"not the last ones of {lines} in order")


async def under_dap2mcp(client: WireClient, lines: int, how: str) -> float:
    """Seconds from `debug` to its answer with the program's end; the output checked after, untimed."""
    lines = 0 if how == START else lines
    started = time.perf_counter()
    answer = await client.call_tool("debug", {"mode": "source", "path": str(PROGRAM), "args": [str(lines), how],
                                              "timeout": TIMEOUT})
    took = time.perf_counter() - started
    if answer.get("state") != "terminated" or answer.get("exitCode") not in (0, None):
        raise RuntimeError(f"dap2mcp: the program did not end within {TIMEOUT} s: state {answer.get('state')}, "
                           f"exit {answer.get('exitCode')}, {answer.get('description')}")
    if lines:
        check(await read_output(client), lines)
    await client.call_tool("stop", {"all": True})
    return took


async def run(args: argparse.Namespace) -> dict[str, dict[str, list[float]]]:
    env = {**os.environ, "PATH": f"{os.path.dirname(args.node)}{os.pathsep}{os.environ.get('PATH', '')}"}
    client = await WireClient.start([sys.executable, "-m", "dap2mcp", "serve"], env=env, cwd=str(HERE))
    ways = [*args.how, START]
    times: dict[str, dict[str, list[float]]] = {how: {"alone": [], "dap2mcp": []} for how in ways}
    runs = [(how, where) for how in ways for where in ("alone", "dap2mcp")]
    try:
        for turn in range(args.warmup + args.rounds):
            for how, where in runs:
                took = (await alone(args.node, args.lines, how) if where == "alone"
                        else await under_dap2mcp(client, args.lines, how))
                if turn >= args.warmup:
                    times[how][where].append(took)
            runs = runs[1:] + runs[:1]
    finally:
        await client.close()
    return times


def report(times: dict[str, dict[str, list[float]]]) -> None:
    start_alone, start_ours = (statistics.median(times[START][where]) for where in ("alone", "dap2mcp"))
    print(f"{'way':<6} {'alone s':>9} {'dap2mcp s':>10} {'ratio':>7} {'ratio/round':>12} {'flood ratio':>12}  "
          "(medians; min-max)")
    for how, by in times.items():
        base, ours = statistics.median(by["alone"]), statistics.median(by["dap2mcp"])
        per_round = statistics.median(o / a for a, o in zip(by["alone"], by["dap2mcp"], strict=True))
        flood = "" if how == START else f"{(ours - start_ours) / max(base - start_alone, 1e-3):>11.2f}x"
        met = "" if how == START else "; target met" if (ours - start_ours) <= TARGET_RATIO * (base - start_alone) \
            else "; target NOT met"
        print(f"{how:<6} {base:>9.3f} {ours:>10.3f} {ours / base:>6.2f}x {per_round:>11.2f}x {flood:>12}  "
              f"(alone {min(by['alone']):.3f}-{max(by['alone']):.3f}; dap2mcp {min(by['dap2mcp']):.3f}-"
              f"{max(by['dap2mcp']):.3f}{met})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--how", default=",".join(WAYS), help=f"comma-separated, of {', '.join(WAYS)}")
    parser.add_argument("--node", default="node", help="the node running js-debug and the program")
    parser.add_argument("--json", help="write the figures to this file too")
    args = parser.parse_args()
    args.node = os.path.abspath(shutil.which(args.node) or args.node)
    args.how = args.how.split(",")
    if unknown := set(args.how) - set(WAYS):
        parser.error(f"unknown ways: {', '.join(sorted(unknown))}")
    load = os.getloadavg()[0]
    times = asyncio.run(run(args))
    leftovers = kill_leftovers()
    print(f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, load average {load:.1f} before; "
          f"{args.lines:,} lines, {args.warmup} warm-up round(s), then {args.rounds}")
    report(times)
    write_json(args.json, {"machine": machine("mcp"), "node": args.node, "lines": args.lines, "rounds": args.rounds,
                           "load_before": load, "leftovers": leftovers, "times_s": times})
    sys.exit(1 if leftovers else 0)


if __name__ == "__main__":
    main()
