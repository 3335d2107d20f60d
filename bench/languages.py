"""Step latency in every language: the MCP `step` tool against a raw DAP client on the same adapter.

Run:  .venv/bin/python bench/languages.py [--steps 100] [--warmup 5] [--only lldb,delve] [--json FILE]

For each adapter and language (debugpy: Python; lldb-dap: C, C++, Rust; cdt-gdb-adapter: C;
Delve: Go) the bench debugs bench/programs/loop.* to a breakpoint before a long loop and then
repeats `step over`, timed from the call to the result:

  mcp-stdio  `call_tool("step", {"mode": "over"})` through the SDK's client to `dap2mcp serve` over stdio.
  mcp-wire   the same call through bench/wire_client.py, a client as thin as the raw DAP one.
  raw-dap    dap2mcp.dap's DapClient straight to the same adapter, started as the server starts it
             (profile.ready + profile.plan: a Rust program gets its formatters): next, wait for
             `stopped`, stackTrace, scopes of the top frame, variables of each scope the server
             would expand, sent together.

The three sessions of one case are open together and stepped in turn (the order rotating every
step), so load from elsewhere on the machine falls on all of them alike.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from dap2mcp.adapters import PROFILES, AdapterProfile, Target
from dap2mcp.dap import DapClient, bodies
from dap2mcp.program_pipe import ProgramPipe
from dap2mcp.session.program.link import CLIENT_CAPABILITIES, open_transport
from dap2mcp.session.stop.inspect import unexpanded

from benchkit import kill_leftovers, machine, marked_line, write_json
from wire_client import WireClient

PROGRAMS = Path(__file__).resolve().parent / "programs"
MARKER = "the benchmark's breakpoint"
CASES = [  # (language, adapter, program, the file holding the marker)
    ("python", "debugpy", "loop.py", "loop.py"),
    ("c", "lldb", "loop.c", "loop.c"),
    ("c++", "lldb", "loop.cpp", "loop.cpp"),
    ("rust", "lldb", "loop.rs", "loop.rs"),
    ("c", "gdb", "loop.c", "loop.c"),
    ("go", "delve", "loop_go", "loop_go/main.go"),
]
TIMEOUT = 60.0


class RawSession:
    def __init__(self, profile: AdapterProfile) -> None:
        self.profile = profile
        self.stops: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.initialized = asyncio.Event()
        self.thread_id: int | None = None
        self.client: DapClient | None = None
        self.pipe: ProgramPipe | None = None

    def _on_event(self, event: str, body: dict[str, Any]) -> None:
        if event == "initialized":
            self.initialized.set()
        elif event == "stopped":
            self.stops.put_nowait(body)
        elif event in ("terminated", "_closed"):
            self.stops.put_nowait({"_ended": event})

    async def _stopped(self) -> None:
        body = await asyncio.wait_for(self.stops.get(), TIMEOUT)
        if "_ended" in body:
            raise RuntimeError("the debuggee ended during the benchmark")
        self.thread_id = body.get("threadId") or self.thread_id

    async def start(self, target: Target, source: Path, line: int) -> None:
        target, _ = await asyncio.to_thread(self.profile.ready, target)
        plan = self.profile.plan(target)
        if plan.output_fifo:  # the program writes its output there (gdb) and cannot start until it is read
            self.pipe = await ProgramPipe.open(plan.output_fifo, lambda text: None)
        client = self.client = DapClient(await open_transport(plan, lambda category, text: None))
        client.on_event(self._on_event)
        client.start()
        caps = await client.request("initialize", {**CLIENT_CAPABILITIES, "adapterID": self.profile.adapter_id},
                                    timeout=TIMEOUT)
        launched = client.send(plan.request, plan.arguments)
        await asyncio.wait_for(self.initialized.wait(), TIMEOUT)
        await client.request("setBreakpoints", {"source": {"path": str(source)}, "breakpoints": [{"line": line}]})
        if caps.get("supportsConfigurationDoneRequest"):
            await client.request("configurationDone")
        await client.wait(plan.request, launched, TIMEOUT)
        await self._stopped()

    async def step(self) -> None:
        client = self.client
        assert client is not None
        await client.request("next", {"threadId": self.thread_id})
        await self._stopped()
        stack = await client.request("stackTrace", {"threadId": self.thread_id, "startFrame": 0, "levels": 20})
        scopes = (await client.request("scopes", {"frameId": stack["stackFrames"][0]["id"]}))["scopes"]
        await asyncio.gather(*(client.request("variables", {"variablesReference": s["variablesReference"]})
                               for s in scopes if s.get("variablesReference") and not unexpanded(bodies.Scope.read(s))))

    async def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.request("disconnect", {"terminateDebuggee": True}, timeout=3)
            await self.client.close()
        if self.pipe is not None:
            self.pipe.close()


async def mcp_session(stack: contextlib.AsyncExitStack, adapter: str, program: Path, source: Path,
                      line: int) -> Client:
    params = StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve"])
    client = await stack.enter_async_context(Client(params))
    result = await client.call_tool("debug", {"mode": "source", "path": str(program), "adapter": adapter,
                                              "breakpoints": [{"file": str(source), "line": line}], "timeout": TIMEOUT})
    data = result.structured_content or {}
    if not data.get("success") or data.get("state") != "paused":
        raise RuntimeError(f"MCP debug did not stop at the breakpoint: {data}")
    stack.push_async_callback(client.call_tool, "stop", {})
    return client


async def wire_session(stack: contextlib.AsyncExitStack, adapter: str, program: Path, source: Path,
                       line: int) -> WireClient:
    client = await WireClient.start([sys.executable, "-m", "dap2mcp", "serve"])
    stack.push_async_callback(client.close)
    data = await client.call_tool("debug", {"mode": "source", "path": str(program), "adapter": adapter,
                                            "breakpoints": [{"file": str(source), "line": line}], "timeout": TIMEOUT})
    if not data.get("success") or data.get("state") != "paused":
        raise RuntimeError(f"MCP debug did not stop at the breakpoint: {data}")
    stack.push_async_callback(client.call_tool, "stop", {})
    return client


async def mcp_step(client: Client | WireClient) -> None:
    result = await client.call_tool("step", {"mode": "over"})
    data = result if isinstance(result, dict) else result.structured_content or {}
    if not data.get("success") or data.get("state") != "paused":
        raise RuntimeError(f"MCP step did not stop: {data}")


async def measure(language: str, adapter: str, program_name: str, source_name: str, steps: int,
                  warmup: int) -> dict[str, Any]:
    program, source = PROGRAMS / program_name, PROGRAMS / source_name
    line = marked_line(source, MARKER)
    times: dict[str, list[float]] = {"raw-dap": [], "mcp-stdio": [], "mcp-wire": []}
    async with contextlib.AsyncExitStack() as stack:
        raw = RawSession(PROFILES[adapter])
        stack.push_async_callback(raw.close)
        await raw.start(Target(mode="source", path=str(program), python=sys.executable), source, line)
        client = await mcp_session(stack, adapter, program, source, line)
        wire = await wire_session(stack, adapter, program, source, line)
        steppers = {"raw-dap": raw.step, "mcp-stdio": lambda: mcp_step(client), "mcp-wire": lambda: mcp_step(wire)}
        names = list(steppers)
        for n in range(warmup + steps):
            for name in names[n % 3:] + names[:n % 3]:
                started = time.perf_counter()
                await steppers[name]()
                if n >= warmup:
                    times[name].append((time.perf_counter() - started) * 1000)
    row: dict[str, Any] = {"language": language, "adapter": adapter}
    for name, samples in times.items():
        ordered = sorted(samples)
        row[name] = {"median_ms": round(statistics.median(ordered), 2),
                     "p90_ms": round(ordered[int(len(ordered) * 0.9) - 1], 2), "min_ms": round(ordered[0], 2)}
    row["ratio"] = round(row["mcp-stdio"]["median_ms"] / row["raw-dap"]["median_ms"], 2)
    row["ratio_wire"] = round(row["mcp-wire"]["median_ms"] / row["raw-dap"]["median_ms"], 2)
    return row


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--only", help="comma-separated adapters to run (default: all)")
    parser.add_argument("--json")
    options = parser.parse_args()
    wanted = set(options.only.split(",")) if options.only else None
    print(f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC  {machine('mcp', 'debugpy')}")
    print(f"{options.warmup} warm-up steps, then {options.steps} measured per variant\n")
    print("| language | adapter | raw-dap median ms | mcp-stdio median ms | x raw | mcp-wire median ms | x raw "
          "| raw p90 | mcp p90 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    for case in CASES:
        if wanted and case[1] not in wanted:
            continue
        row = await measure(*case, steps=options.steps, warmup=options.warmup)
        rows.append(row)
        raw, mcp, wire = row["raw-dap"], row["mcp-stdio"], row["mcp-wire"]
        print(f"| {row['language']} | {row['adapter']} | {raw['median_ms']:.2f} | {mcp['median_ms']:.2f} | "
              f"{row['ratio']:.2f} | {wire['median_ms']:.2f} | {row['ratio_wire']:.2f} | {raw['p90_ms']:.2f} | "
              f"{mcp['p90_ms']:.2f} |", flush=True)
    leftovers = kill_leftovers()
    write_json(options.json, {"machine": machine("mcp", "debugpy"), "rows": rows, "leftovers": leftovers})


if __name__ == "__main__":
    asyncio.run(main())
