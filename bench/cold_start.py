"""Cold start: `debug` to the first breakpoint stop, against a raw DAP client making the same launch.

Run:  .venv/bin/python bench/cold_start.py [--rounds 11] [--warmup 1] [--python PATH] [--json FILE]
      .venv/bin/python bench/cold_start.py --timeline      # where the time goes, stamp by stamp

Every round starts bench/programs/loop.py on debugpy and runs it to the breakpoint before its loop,
once per variant, timed from the first byte sent to the answer that holds the stop:

  mcp-stdio  `call_tool("debug", ...)` through the SDK's client to one `dap2mcp serve` over stdio,
             started before the first round and kept (a server already running, as an agent's is).
  mcp-wire   the same call to a second such server through bench/wire_client.py, a client as thin as
             the raw DAP one.
  raw-dap    dap2mcp.dap.DapClient straight to a new `python -m debugpy.adapter`, launching with the
             arguments the server sends (DEBUGPY.plan: the same interpreter, the same sitecustomize),
             setBreakpoints, the default exception filters, configurationDone, the launch response,
             `stopped`, then stackTrace, scopes and the variables of each scope: what `debug`'s
             answer shows of the stop.

Between rounds each session is ended (`stop`, or `disconnect` for the raw client), untimed. The
order of the variants rotates every round, so load from elsewhere falls on all of them alike.
Printed: each variant's median, minimum and maximum, the ratio of the medians to raw-dap's (the
target: mcp-stdio within 1.2x), and the median of each round's own ratio, which a moment of load
from elsewhere disturbs less on a shared machine. No
variant names the interpreter: each runs the program on the first python3 on PATH, as a user's
`debug` without `python` does (a pyenv shim, where pyenv is installed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from dap2mcp.adapters import DEBUGPY, Target
from dap2mcp.dap import DapClient
from dap2mcp.session.breakpoints.specs import BreakpointSpec
from dap2mcp.session.program.link import CLIENT_CAPABILITIES, open_transport

from benchkit import kill_leftovers, machine, marked_line, write_json
from wire_client import WireClient

HERE = Path(__file__).resolve().parent
PROGRAM = HERE / "programs" / "loop.py"
MARKER = "the benchmark's breakpoint"
TIMEOUT = 60.0
TARGET_RATIO = 1.2


class RawDap:
    """A new adapter per start, driven by hand: the least a client can do to reach the first stop."""

    name = "raw-dap"

    def __init__(self, line: int, python: str | None) -> None:
        self.line, self.python = line, python
        self.client: DapClient | None = None

    async def start(self) -> None:
        stops: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        initialized = asyncio.Event()

        def on_event(event: str, body: dict[str, Any]) -> None:
            if event == "initialized":
                initialized.set()
            elif event in ("stopped", "terminated", "_closed"):
                stops.put_nowait({"_event": event, **body})

        plan = DEBUGPY.plan(Target(mode="source", path=str(PROGRAM), cwd=str(HERE), python=self.python))
        client = self.client = DapClient(await open_transport(plan, lambda category, text: None))
        client.on_event(on_event)
        client.start()
        caps = await client.request("initialize", {**CLIENT_CAPABILITIES, "adapterID": DEBUGPY.adapter_id},
                                    timeout=TIMEOUT)
        launched = client.send(plan.request, plan.arguments)
        await asyncio.wait_for(initialized.wait(), TIMEOUT)
        await client.request("setBreakpoints", {"source": {"path": str(PROGRAM)}, "breakpoints": [{"line": self.line}]})
        filters = [f["filter"] for f in caps.get("exceptionBreakpointFilters") or [] if f.get("default")]
        await client.request("setExceptionBreakpoints", {"filters": filters})
        await client.request("configurationDone")
        await client.wait(plan.request, launched, TIMEOUT)
        stop = await asyncio.wait_for(stops.get(), TIMEOUT)
        if stop["_event"] != "stopped":
            raise RuntimeError(f"{self.name}: the program ended before the breakpoint: {stop}")
        stack = await client.request("stackTrace", {"threadId": stop["threadId"], "startFrame": 0, "levels": 20})
        scopes = (await client.request("scopes", {"frameId": stack["stackFrames"][0]["id"]}))["scopes"]
        await asyncio.gather(*(client.request("variables", {"variablesReference": s["variablesReference"]})
                               for s in scopes if s.get("variablesReference") and not s.get("expensive")))

    async def end(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.request("disconnect", {"terminateDebuggee": True}, timeout=5)
            await self.client.close()
            self.client = None


class McpDebug:
    """`debug` through an MCP client to a server that stays up across rounds."""

    def __init__(self, name: str, client: Client | WireClient, line: int, python: str | None) -> None:
        self.name, self.client = name, client
        self.arguments: dict[str, Any] = {"mode": "source", "path": str(PROGRAM), "cwd": str(HERE),
                                          "breakpoints": [{"file": str(PROGRAM), "line": line}], "timeout": TIMEOUT}
        if python:
            self.arguments["python"] = python

    async def start(self) -> None:
        result = await self.client.call_tool("debug", self.arguments)
        data = result if isinstance(result, dict) else result.structured_content or {}
        if not data.get("success") or data.get("state") != "paused":
            raise RuntimeError(f"{self.name}: debug did not stop at the breakpoint: {data}")

    async def end(self) -> None:
        await self.client.call_tool("stop", {})


def server_params() -> StdioServerParameters:
    # the server gets this environment (the SDK would pass a minimal one), so PATH, and with it python3, match
    return StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve"], env=dict(os.environ),
                                 cwd=str(HERE.parent))


async def measure(rounds: int, warmup: int, python: str | None) -> dict[str, list[float]]:
    line = marked_line(PROGRAM, MARKER)
    async with contextlib.AsyncExitStack() as stack:
        sdk = await stack.enter_async_context(Client(server_params()))
        params = server_params()
        wire = await WireClient.start([params.command, *params.args], env=params.env, cwd=params.cwd)
        stack.push_async_callback(wire.close)
        variants: list[Any] = [RawDap(line, python), McpDebug("mcp-stdio", sdk, line, python),
                               McpDebug("mcp-wire", wire, line, python)]
        times: dict[str, list[float]] = {v.name: [] for v in variants}
        for n in range(warmup + rounds):
            shift = n % len(variants)
            for variant in variants[shift:] + variants[:shift]:
                started = time.perf_counter()
                try:
                    await variant.start()
                    took = time.perf_counter() - started
                finally:
                    await variant.end()
                if n >= warmup:
                    times[variant.name].append(took * 1000)
            print(f"round {n + 1 - warmup if n >= warmup else 'warm-up'}: "
                  + ", ".join(f"{name} {samples[-1]:.0f} ms" for name, samples in times.items() if samples
                              and n >= warmup), file=sys.stderr, flush=True)
    return times


# -- where the time goes -----------------------------------------------------------------------


Stamps = dict[str, float]


async def timeline(rounds: int, python: str | None) -> None:
    """One server in this process (no MCP in the way), its stages and DAP messages stamped, beside the raw
    client's DAP messages: the median ms of each stamp from the start, over `rounds` starts of each."""
    from timeline import stamp_around, stamp_dap

    from dap2mcp.adapters import python as debugpy_profile
    from dap2mcp.session import answer, debugger, session

    stamps: Stamps = {}
    stamp_dap(stamps)
    for owner, name, before, after in [
        (debugpy_profile.DebugpyProfile, "prepare", "prepare (interpreter check)", "prepared"),
        (session.DebugSession, "start", "session.start", "handshake done"),
        (session.DebugSession, "wait_for_stop", "waiting for the stop", "stopped: reading it"),
        (answer, "result", None, "context built"),
    ]:
        stamp_around(owner, name, stamps, before, after)
    line = marked_line(PROGRAM, MARKER)
    runs: dict[str, list[Stamps]] = {"dap2mcp": [], "raw-dap": []}
    server = debugger.Debugger()
    raw = RawDap(line, python)

    async def in_process() -> None:
        target = Target(mode="source", path=str(PROGRAM), cwd=str(HERE), python=python)
        ctx = await server.debug(target, adapter=None, breakpoints=[BreakpointSpec(file=str(PROGRAM), line=line)],
                                 timeout=TIMEOUT)
        if ctx.state != "paused":
            raise RuntimeError(f"dap2mcp: debug did not stop at the breakpoint: {ctx.state}")

    starts: dict[str, tuple[Callable[[], Awaitable[None]], Callable[[], Awaitable[None]]]] = {
        "dap2mcp": (in_process, server.stop), "raw-dap": (raw.start, raw.end)}
    try:
        for n in range(rounds + 1):
            for name in (list(starts) if n % 2 else list(reversed(starts))):
                begin, end = starts[name]
                stamps.clear()
                stamps["start"] = time.perf_counter()
                await begin()
                stamps["done"] = time.perf_counter()
                if n:  # the first round warms up
                    runs[name].append(dict(stamps))
                await end()
    finally:
        await server.close()
        await raw.end()
    for name, taken in runs.items():
        print(f"\n{name}: median ms from the start, over {len(taken)} starts")
        labels = {label for run in taken for label in run}
        at = {label: statistics.median((run[label] - run["start"]) * 1000 for run in taken if label in run)
              for label in labels}
        for label, ms in sorted(at.items(), key=lambda item: item[1]):
            if label != "< the last DAP message":
                print(f"  {ms:8.1f}  {label}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=11, help="measured starts per variant (default 11)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured rounds first (default 1)")
    parser.add_argument("--python", help="the debuggee's interpreter (default: the first python3 on PATH)")
    parser.add_argument("--timeline", action="store_true", help="stamp the stages of a start instead")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    options = parser.parse_args()
    if options.rounds < 1 or options.warmup < 0:
        parser.error("--rounds must be at least 1, --warmup at least 0")
    sys.path.insert(0, str(HERE))
    load_before = os.getloadavg()[0]
    try:
        if options.timeline:
            asyncio.run(timeline(options.rounds, options.python))
            return 0
        times = asyncio.run(measure(options.rounds, options.warmup, options.python))
    finally:
        leftovers = kill_leftovers()
    load_after = os.getloadavg()[0]
    medians = {name: statistics.median(samples) for name, samples in times.items()}
    raw = medians[RawDap.name]
    about = machine("debugpy", "mcp")
    print(f"\ncold start, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; {options.rounds} rounds "
          f"after {options.warmup} warm-up; {about['nproc']} CPUs, {about['cpu']}; Python {about['python']}; "
          f"debugpy {about['debugpy']}; mcp {about['mcp']}; load average {load_before:.2f} before, {load_after:.2f} after\n")
    print(f"{'variant':<10} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'x raw':>6}")
    for name, samples in times.items():
        print(f"{name:<10} {medians[name]:>10.0f} {min(samples):>8.0f} {max(samples):>8.0f} {medians[name] / raw:>6.2f}")
    # each round's starts ran one after another, so a round's ratio compares starts under the same load
    paired = {name: statistics.median(t / r for t, r in zip(samples, times[RawDap.name], strict=True))
              for name, samples in times.items() if name != RawDap.name}
    print("\nmedian of each round's ratio to raw-dap: " + ", ".join(f"{name} {x:.2f}" for name, x in paired.items()))
    ratio = medians["mcp-stdio"] / raw
    print(f"\ntarget: mcp-stdio within {TARGET_RATIO:g}x of raw-dap: {ratio:.2f}x -> "
          f"{'MET' if ratio <= TARGET_RATIO else 'NOT MET'}")
    write_json(options.json, {"machine": about, "rounds": options.rounds, "warmup": options.warmup,
                              "loadavg_1m": {"before": load_before, "after": load_after}, "samples_ms": times,
                              "medians_ms": medians, "ratio": ratio, "paired_ratios": paired, "leftovers": leftovers})
    return 0


if __name__ == "__main__":
    sys.exit(main())
