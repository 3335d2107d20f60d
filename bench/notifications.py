"""Resource notifications while stepping: how many a client gets, and how late the last one is.

Run:  .venv/bin/python bench/notifications.py [--steps 200] [--bursts 10] [--burst 20] [--singles 20] [--json FILE]

For each protocol version (2025-11-25 with `resources/subscribe`, 2026-07-28 with
`subscriptions/listen`) a real MCP client starts `python -m dap2mcp serve` over stdio, watches
all five resources and debugs bench/programs/loop.py to a breakpoint before a long loop. Then:

  flood    `--steps` step-overs back to back: notifications per second per resource (from the
           first step to the resource's last notification, the trailing one included), and the
           smallest gap between two notifications of one resource (the window is 300 ms).
  bursts   `--bursts` times `--burst` quick steps, then quiet: the delay from the last step's
           result to the resource's last notification (the trailing update).
  singles  `--singles` lone steps with quiet between: the delay from the step's result to the
           session resource's notification.

Times are taken on the client as notifications arrive, so they include the stdio transport.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any

from mcp import Client, MCPDeprecationWarning
from mcp.client.stdio import StdioServerParameters
from mcp.server.subscriptions import ResourceUpdated
from mcp.types import ResourceUpdatedNotification

from benchkit import kill_leftovers, machine, marked_line, write_json

HERE = Path(__file__).resolve().parent
PROGRAM = HERE / "programs" / "loop.py"
MARKER = "# the benchmark's breakpoint"
URIS = ("debugger://session", "debugger://breakpoints", "debugger://threads", "debugger://snapshots",
        "debugger://output")
QUIET = 0.6


class Watch:
    def __init__(self) -> None:
        self.arrivals: dict[str, list[float]] = {uri: [] for uri in URIS}

    def note(self, uri: str) -> None:
        self.arrivals.setdefault(uri, []).append(time.perf_counter())

    async def on_message(self, message: Any) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            self.note(message.params.uri)

    def between(self, uri: str, start: float, end: float = float("inf")) -> list[float]:
        return [t for t in self.arrivals[uri] if start <= t <= end]


async def step(client: Client) -> None:
    result = await client.call_tool("step", {"mode": "over"})
    if result.is_error or (result.structured_content or {}).get("state") != "paused":
        raise SystemExit(f"step failed: {result.structured_content}")


async def run_version(version: str, args: argparse.Namespace) -> dict[str, Any]:
    watch = Watch()
    params = StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve"])
    legacy = version == "2025-11-25"
    async with Client(params, mode="legacy" if legacy else version,
                      message_handler=watch.on_message if legacy else None) as client:
        pump = None
        listen = None
        if legacy:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                for uri in URIS:
                    await client.subscribe_resource(uri)
        else:
            listen = client.listen(resource_subscriptions=URIS)
            stream = await listen.__aenter__()

            async def drain() -> None:
                async for event in stream:
                    if isinstance(event, ResourceUpdated):
                        watch.note(event.uri)
            pump = asyncio.ensure_future(drain())
        try:
            line = marked_line(PROGRAM, MARKER)
            started = await client.call_tool("debug", {"mode": "source", "path": str(PROGRAM),
                                                       "breakpoints": [{"file": str(PROGRAM), "line": line}]})
            if (started.structured_content or {}).get("state") != "paused":
                raise SystemExit(f"debug did not stop at the breakpoint: {started.structured_content}")
            return await measure(client, watch, args)
        finally:
            if pump is not None:
                pump.cancel()
            if listen is not None:
                await listen.__aexit__(None, None, None)


async def quiet(watch: Watch) -> None:
    """Wait until no notification has arrived for QUIET seconds."""
    while True:
        last = max((t[-1] for t in watch.arrivals.values() if t), default=0.0)
        await asyncio.sleep(QUIET)
        if max((t[-1] for t in watch.arrivals.values() if t), default=0.0) == last:
            return


async def measure(client: Client, watch: Watch, args: argparse.Namespace) -> dict[str, Any]:
    await quiet(watch)
    begin = time.perf_counter()
    for _ in range(args.steps):
        await step(client)
    end = time.perf_counter()
    await quiet(watch)
    seconds = end - begin
    flood: dict[str, Any] = {"steps": args.steps, "seconds": round(seconds, 3),
                             "steps_per_s": round(args.steps / seconds, 1), "resources": {}}
    for uri in URIS:
        times = watch.between(uri, begin)
        gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
        span = max(end, times[-1] if times else end) - begin  # the trailing notification counts too
        flood["resources"][uri] = {"notifications": len(times), "per_s": round(len(times) / span, 2),
                                   "min_gap_ms": round(min(gaps) * 1000, 1) if gaps else None}

    trailing: dict[str, list[float]] = {uri: [] for uri in URIS}
    for _ in range(args.bursts):
        for _ in range(args.burst):
            await step(client)
        last_step = time.perf_counter()
        await quiet(watch)
        for uri in ("debugger://session", "debugger://threads", "debugger://snapshots"):
            after = watch.between(uri, last_step - 1.0)
            if after:
                trailing[uri].append((after[-1] - last_step) * 1000)

    singles: list[float] = []
    for _ in range(args.singles):
        await quiet(watch)
        await step(client)
        done = time.perf_counter()
        await quiet(watch)
        arrived = watch.between("debugger://session", done - 1.0)
        if arrived:
            singles.append((arrived[-1] - done) * 1000)
    return {
        "flood": flood,
        "burst_trailing_delay_ms": {uri: summary(v) for uri, v in trailing.items() if v},
        "single_step_delay_ms": summary(singles),
    }


def summary(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 1), "min": round(min(values), 1),
            "max": round(max(values), 1), "n": len(values)}


def report(version: str, result: dict[str, Any]) -> None:
    flood = result["flood"]
    print(f"\n== {version}: {flood['steps']} steps in {flood['seconds']} s ({flood['steps_per_s']} steps/s)")
    print(f"{'resource':<24} {'notifications':>13} {'per s':>7} {'min gap ms':>11}")
    for uri, row in flood["resources"].items():
        print(f"{uri:<24} {row['notifications']:>13} {row['per_s']:>7} {row['min_gap_ms'] or '-':>11}")
    print("delay from the last step of a burst to the resource's last notification (ms):")
    for uri, s in result["burst_trailing_delay_ms"].items():
        print(f"  {uri:<24} median {s['median']:>6}  min {s['min']:>6}  max {s['max']:>6}  (n={s['n']})")
    s = result["single_step_delay_ms"]
    print(f"delay from a lone step's result to the session notification (ms): median {s['median']}  "
          f"min {s['min']}  max {s['max']}  (n={s['n']})")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--bursts", type=int, default=10)
    parser.add_argument("--burst", type=int, default=20)
    parser.add_argument("--singles", type=int, default=20)
    parser.add_argument("--json")
    args = parser.parse_args()
    results = {}
    try:
        for version in ("2025-11-25", "2026-07-28"):
            results[version] = await run_version(version, args)
            report(version, results[version])
    finally:
        kill_leftovers()
    write_json(args.json, {"when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                           "machine": machine("mcp", "debugpy"), "results": results})


if __name__ == "__main__":
    asyncio.run(main())
