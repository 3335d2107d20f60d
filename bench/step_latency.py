"""Step latency: the MCP `step` tool against a hand-written DAP client doing the same work.

Run:  .venv/bin/python bench/step_latency.py [--steps 200] [--steps-off 50] [--warmup 10] [--json FILE]
      .venv/bin/python bench/step_latency.py --languages [--steps 100]   # every language: bench/languages.py

Every variant debugs bench/programs/loop.py, stops at a breakpoint before a long loop, then
repeats `step over`. Timed per step:

  mcp-stdio   `call_tool("step", {"mode": "over"})` through a real MCP client talking to
              `python -m dap2mcp serve` over stdio, from the call to the parsed result.
  mcp-wire    the same call to the same server through bench/wire_client.py, a client as thin on the
              MCP side as the raw DAP client is on the DAP side (no pydantic models, no schema checks).
  mcp-wire-plain  the same through the thin client, with the server's stop read-ahead off
              (bench/serve_plain.py): each stop's requests one round trip after another.
  mcp-floor   the protocol alone: bench/mcp_floor.py answers `step` with a recorded context, through
              the SDK's client; mcp-floor-wire the same through the thin client.
  echo-wire   the same recorded answer from bench/echo_floor.py, a plain loop with no MCP SDK, through
              the thin client: the cost of the hand-off between processes alone.
  mcp-inproc  the same call with `Client(build_server())` in this process (no stdio, no
              JSON-RPC framing), so the transport's share is visible.
  raw-dap     dap2mcp.dap's DapClient straight to `python -m debugpy.adapter`: next, wait for
              `stopped`, stackTrace, scopes(top frame), then variables of every non-expensive
              scope issued together: the information the MCP step returns.

Each runs with debugpy's TCP_NODELAY fix (dap2mcp's default) and without it. The raw client
launches with DEBUGPY.plan(Target(...)), exactly the launch the server makes. For one
nodelay setting the sessions are open together and stepped in turn (rotating the
order), so load from elsewhere on the machine falls on all of them alike.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from dap2mcp import processes
from dap2mcp.adapters import DEBUGPY, Target
from dap2mcp.dap import DapClient, spawn_stdio
from dap2mcp.server import build_server
from dap2mcp.session.debugger import Debugger
from dap2mcp.session.handle import SessionHandle
from dap2mcp.session.program.link import CLIENT_CAPABILITIES

from benchkit import kill_leftovers, machine, marked_line, write_json
from wire_client import WireClient

HERE = Path(__file__).resolve().parent
PROGRAM = HERE / "programs" / "loop.py"
MARKER = "# the benchmark's breakpoint"
MAX_FRAMES = 20  # what session.context asks stackTrace for
STEP_TIMEOUT = 10.0
MCP_TARGET_RATIO = 1.3
MCP_TARGET_MS = 15.0

# The initialize arguments a session sends.
INITIALIZE = {**CLIENT_CAPABILITIES, "adapterID": DEBUGPY.adapter_id}


def target(nodelay: bool) -> Target:
    return Target(mode="source", path=str(PROGRAM), cwd=str(HERE), python=sys.executable, tcp_nodelay=nodelay)


# -- raw DAP -----------------------------------------------------------------------------------


class RawSession:
    """The handshake and the per-step sequence, written directly against DapClient."""

    def __init__(self, nodelay: bool) -> None:
        self.nodelay = nodelay
        self.client: DapClient | None = None
        self.stops: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.initialized = asyncio.Event()
        self.thread_id: int | None = None

    def _on_event(self, event: str, body: dict[str, Any]) -> None:
        if event == "initialized":
            self.initialized.set()
        elif event == "stopped":
            self.stops.put_nowait(body)
        elif event in ("terminated", "_closed"):
            self.stops.put_nowait({"_ended": event, **body})

    async def _stopped(self) -> dict[str, Any]:
        body = await asyncio.wait_for(self.stops.get(), STEP_TIMEOUT)
        if "_ended" in body:
            raise RuntimeError(f"debuggee ended during the benchmark: {body}")
        self.thread_id = body.get("threadId") or self.thread_id
        return body

    async def start(self, line: int) -> None:
        plan = DEBUGPY.plan(target(self.nodelay))
        transport = await spawn_stdio(plan.argv, env=processes.environ_with(plan.env))
        client = self.client = DapClient(transport)
        client.on_event(self._on_event)
        client.start()
        caps = await client.request("initialize", INITIALIZE, timeout=30)
        launched = client.send(plan.request, plan.arguments)
        await asyncio.wait_for(self.initialized.wait(), 30)
        await client.request("setBreakpoints", {"source": {"path": str(PROGRAM)}, "breakpoints": [{"line": line}]})
        filters = [f["filter"] for f in caps.get("exceptionBreakpointFilters") or [] if f.get("default")]
        await client.request("setExceptionBreakpoints", {"filters": filters})  # as the session does
        await client.request("configurationDone")
        await client.wait(plan.request, launched, 30)
        await self._stopped()

    async def step(self) -> None:
        client = self.client
        assert client is not None
        await client.request("next", {"threadId": self.thread_id})
        await self._stopped()
        stack = await client.request("stackTrace", {"threadId": self.thread_id, "startFrame": 0, "levels": MAX_FRAMES})
        frame = stack["stackFrames"][0]["id"]
        scopes = (await client.request("scopes", {"frameId": frame}))["scopes"]
        await asyncio.gather(*(client.request("variables", {"variablesReference": s["variablesReference"]})
                               for s in scopes if not s.get("expensive")))

    async def close(self) -> None:
        if self.client is None:
            return
        if not self.client.closed:
            with contextlib.suppress(Exception):
                await self.client.request("disconnect", {"terminateDebuggee": True}, timeout=3)
        await self.client.close()


# -- the variants, each an open session with a `step` ------------------------------------


# DAP requests sent per DapClient, for the clients a variant registers once its warm-up is over.
REQUEST_COUNTS: dict[int, Counter[str]] = {}
_original_send = DapClient.send


def _counting_send(self: DapClient, command: str, arguments: dict[str, Any] | None = None) -> Any:
    counts = REQUEST_COUNTS.get(id(self))
    if counts is not None:
        counts[command] += 1
    return _original_send(self, command, arguments)


class Variant:
    name = ""

    def __init__(self, nodelay: bool, line: int) -> None:
        self.nodelay = nodelay
        self.line = line
        self.times: list[float] = []
        self.requests: Counter[str] | None = None

    def count_requests_of(self, client: DapClient | None) -> None:
        if client is not None:
            self.requests = REQUEST_COUNTS[id(client)] = Counter()

    def request_counts(self, steps: int) -> dict[str, Any]:
        if self.requests is None:
            return {}
        return {"dap_requests_per_step": {k: v / steps for k, v in sorted(self.requests.items())}}

    async def open(self, stack: contextlib.AsyncExitStack) -> None:
        raise NotImplementedError

    async def step(self) -> None:
        raise NotImplementedError

    def start_measuring(self) -> None:
        """Called after the warm-up steps."""

    def step_time(self, outside: float) -> float:
        """The time of the step just made: as timed here, unless the client timed it itself."""
        return outside

    def extras(self, steps: int) -> dict[str, Any]:
        return self.request_counts(steps)


class RawDap(Variant):
    name = "raw-dap"

    async def open(self, stack: contextlib.AsyncExitStack) -> None:
        self.session = RawSession(self.nodelay)
        stack.push_async_callback(self.session.close)
        await self.session.start(self.line)

    async def step(self) -> None:
        await self.session.step()

    def start_measuring(self) -> None:
        self.count_requests_of(self.session.client)


def payload(result: Any) -> dict[str, Any]:
    if isinstance(result, dict):  # WireClient hands over the structured content itself
        return result
    data = result.structured_content
    if data is None:
        data = json.loads(result.content[0].text)
    return data


class McpVariant(Variant):
    client: Client

    async def start_debugging(self, stack: contextlib.AsyncExitStack) -> None:
        started = payload(await self.client.call_tool("debug", {
            "mode": "source", "path": str(PROGRAM), "cwd": str(HERE), "python": sys.executable,
            "breakpoints": [{"file": str(PROGRAM), "line": self.line}], "tcpNoDelay": self.nodelay,
        }))
        if not started.get("success") or started.get("state") != "paused":
            raise RuntimeError(f"{self.name}: debug did not stop at the breakpoint: {started}")
        stack.push_async_callback(self.stop)

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await self.client.call_tool("stop", {})

    async def step(self) -> None:
        data = payload(await self.client.call_tool("step", {"mode": "over"}))
        if not data.get("success") or data.get("state") != "paused":
            raise RuntimeError(f"{self.name}: step did not stop: {data}")


def stdio_params() -> StdioServerParameters:
    # The server gets our environment (the SDK would pass a minimal one), so PATH etc. match.
    return StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve"], env=dict(os.environ),
                                 cwd=str(HERE.parent))


class McpStdio(McpVariant):
    name = "mcp-stdio"

    async def open(self, stack: contextlib.AsyncExitStack) -> None:
        self.client = await stack.enter_async_context(Client(stdio_params()))
        await self.start_debugging(stack)


class McpWire(McpVariant):
    """The same server through a thin client (bench/wire_client.py), as thin on the MCP side as the
    raw DAP client is on the DAP side: what the server costs, without the SDK client's own work."""

    name = "mcp-wire"

    async def open(self, stack: contextlib.AsyncExitStack) -> None:
        params = stdio_params()
        client = await WireClient.start([params.command, *params.args], env=params.env, cwd=params.cwd)
        stack.push_async_callback(client.close)
        self.client = client  # type: ignore[assignment]
        await self.start_debugging(stack)


class McpWirePlain(McpVariant):
    """The same server with its stop read-ahead off (bench/serve_plain.py), through the thin client: what
    the read-ahead saves, measured beside it."""

    name = "mcp-wire-plain"

    async def open(self, stack: contextlib.AsyncExitStack) -> None:
        params = stdio_params()
        client = await WireClient.start([params.command, str(HERE / "serve_plain.py")], env=params.env,
                                        cwd=params.cwd)
        stack.push_async_callback(client.close)
        self.client = client  # type: ignore[assignment]
        await self.start_debugging(stack)


NODE_MODULES = HERE.parent / "tests" / "npm" / "node_modules"  # scripts/test.sh installs them


class NodeClient:
    """bench/node_client.mjs: the TypeScript SDK's client, which checks results with ajv-compiled schemas."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.times: list[float] = []

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        line = name if name != "debug" else f"debug {json.dumps(arguments)}"
        self.process.stdin.write(line.encode() + b"\n")
        answer = await self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the node client ended before answering {name}")
        data = json.loads(answer)
        self.times.append(data["ms"] / 1000)
        return data["result"]

    async def close(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.call_tool("stop", {}), 20)
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()


class McpNode(McpVariant):
    """The same server through the official TypeScript SDK's client (bench/node_client.mjs), timed inside
    that client: what an agent host built on it waits for a step."""

    name = "mcp-node"

    async def open(self, stack: contextlib.AsyncExitStack) -> None:
        node, sdk = NODE_MODULES / ".bin" / "node", NODE_MODULES / "@modelcontextprotocol" / "sdk"
        if not node.exists() or not sdk.exists():
            raise RuntimeError(f"{self.name}: run `npm ci --prefix tests/npm` (scripts/test.sh does) for {node} and {sdk}")
        params = stdio_params()
        process = await asyncio.create_subprocess_exec(str(node), str(HERE / "node_client.mjs"), str(sdk),
                                                       params.command, stdin=asyncio.subprocess.PIPE,
                                                       stdout=asyncio.subprocess.PIPE, env=params.env, cwd=params.cwd)
        self.node = NodeClient(process)
        stack.push_async_callback(self.node.close)
        self.client = self.node  # type: ignore[assignment]
        await self.start_debugging(stack)

    def step_time(self, outside: float) -> float:
        return self.node.times[-1]  # inside node: without the hop from this process to it


class McpInProcess(McpVariant):
    """In this process, so it can be looked into: the DAP requests its session sends per step, and
    the time spent in SessionHandle.step (DAP traffic plus building the Context) apart from the MCP layers."""

    name = "mcp-inproc"

    async def open(self, stack: contextlib.AsyncExitStack) -> None:
        self.debugger = Debugger()
        self.inner: list[float] = []
        self.measuring = False
        original_step = SessionHandle.step

        async def timed_step(calls: SessionHandle, *args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await original_step(calls, *args, **kwargs)
            finally:
                if self.measuring:
                    self.inner.append(time.perf_counter() - t0)

        SessionHandle.step = timed_step  # type: ignore[method-assign]
        stack.callback(setattr, SessionHandle, "step", original_step)
        self.client = await stack.enter_async_context(Client(build_server(self.debugger)))
        await self.start_debugging(stack)

    def start_measuring(self) -> None:
        self.measuring = True
        current = self.debugger.sessions.current
        self.count_requests_of(current.link.client if current is not None else None)

    def extras(self, steps: int) -> dict[str, Any]:
        return {"debugger_step": summary(self.inner), **self.request_counts(steps)}


class McpFloor(McpVariant):
    """The protocol alone: bench/mcp_floor.py answers `step` with a context recorded from a real step,
    over the same SDK, result types and stdio transport, doing no debugging."""

    name = "mcp-floor"

    async def open(self, stack: contextlib.AsyncExitStack) -> None:
        params = stdio_params()
        params.args = [str(HERE / "mcp_floor.py"), await self.record(stack)]
        self.client = await stack.enter_async_context(Client(params))

    async def record(self, stack: contextlib.AsyncExitStack) -> str:
        """A context with a few locals and a change, as in the middle of the loop, in a file."""
        async with Client(build_server()) as recorder:
            await recorder.call_tool("debug", {"mode": "source", "path": str(PROGRAM), "cwd": str(HERE),
                                               "breakpoints": [{"file": str(PROGRAM), "line": self.line}]})
            for _ in range(5):
                recorded = payload(await recorder.call_tool("step", {"mode": "over"}))
            await recorder.call_tool("stop", {})
        recorded.pop("success", None)
        path = stack.enter_context(tempfile.TemporaryDirectory()) + "/step.json"
        Path(path).write_text(json.dumps(recorded))
        return path


class McpFloorWire(McpFloor):
    """The same floor through the thin client: what the SDK's server side costs a call."""

    name = "mcp-floor-wire"
    script = "mcp_floor.py"

    async def open(self, stack: contextlib.AsyncExitStack) -> None:
        params = stdio_params()
        client = await WireClient.start([params.command, str(HERE / self.script), await self.record(stack)],
                                        env=params.env, cwd=params.cwd)
        stack.push_async_callback(client.close)
        self.client = client  # type: ignore[assignment]


class EchoWire(McpFloorWire):
    """The same answer from a plain Python loop without the SDK (bench/echo_floor.py), through the thin
    client: what passing a message to a cold process and back costs, apart from MCP's handling of it."""

    name = "echo-wire"
    script = "echo_floor.py"


VARIANTS: list[type[Variant]] = [RawDap, McpStdio, McpWire, McpWirePlain, McpNode, McpInProcess, McpFloor,
                                 McpFloorWire, EchoWire]


# -- measuring and reporting -------------------------------------------------------------------


async def run_setting(nodelay: bool, line: int, warmup: int, steps: int) -> list[Variant]:
    """Open every variant's session, warm each up, then step them in turn, so that whatever else the
    machine is doing falls on every variant alike."""
    variants = [cls(nodelay, line) for cls in VARIANTS if nodelay or not issubclass(cls, McpFloor)]  # floors debug nothing
    DapClient.send = _counting_send  # type: ignore[method-assign]
    async with contextlib.AsyncExitStack() as stack:
        stack.callback(setattr, DapClient, "send", _original_send)
        for variant in variants:
            await variant.open(stack)
        for variant in variants:
            for _ in range(warmup):
                await variant.step()
            variant.start_measuring()
        for i in range(steps):
            shift = i % len(variants)
            for variant in variants[shift:] + variants[:shift]:
                t0 = time.perf_counter()
                await variant.step()
                variant.times.append(variant.step_time(time.perf_counter() - t0))
        REQUEST_COUNTS.clear()  # not the disconnects of closing
    return variants


def summary(times: list[float]) -> dict[str, float]:
    ms = sorted(t * 1000 for t in times)
    return {
        "median_ms": statistics.median(ms),
        "p90_ms": ms[min(len(ms) - 1, round(0.9 * (len(ms) - 1)))],
        "min_ms": ms[0],
        "max_ms": ms[-1],
        "mean_ms": statistics.fmean(ms),
    }






async def run(options: argparse.Namespace) -> dict[str, Any]:
    line = marked_line(PROGRAM, MARKER)
    results: list[dict[str, Any]] = []
    load_before = os.getloadavg()
    for nodelay, steps in ((True, options.steps), (False, options.steps_off)):
        t0 = time.perf_counter()
        print(f"nodelay {'on' if nodelay else 'off'}: {len(VARIANTS)} sessions, {options.warmup} warm-up + "
              f"{steps} measured steps each ...", end="", flush=True, file=sys.stderr)
        variants = await run_setting(nodelay, line, options.warmup, steps)
        print(f" {time.perf_counter() - t0:.1f}s", file=sys.stderr)
        for v in variants:
            entry: dict[str, Any] = {"variant": v.name, "nodelay": nodelay, "steps": len(v.times),
                                     **summary(v.times), **v.extras(len(v.times))}
            if options.keep_samples:
                entry["samples_ms"] = [t * 1000 for t in v.times]
            results.append(entry)
    raw = {r["nodelay"]: r["median_ms"] for r in results if r["variant"] == RawDap.name}
    for r in results:
        r["ratio_to_raw"] = r["median_ms"] / raw[r["nodelay"]]
    def measured(variant: str) -> dict[str, Any]:
        return next(r for r in results if r["variant"] == variant and r["nodelay"])

    stdio = measured(McpStdio.name)
    targets: dict[str, Any] = {
        key: {"limit": MCP_TARGET_RATIO, "value": ratio, "met": ratio <= MCP_TARGET_RATIO}
        for key, ratio in (("ratio_to_raw", stdio["ratio_to_raw"]),
                           ("ratio_to_raw_node_client", measured(McpNode.name)["ratio_to_raw"]),
                           ("ratio_to_raw_thin_client", measured(McpWire.name)["ratio_to_raw"]))
    }
    targets |= {
        "median_ms": {"limit": MCP_TARGET_MS, "value": stdio["median_ms"], "met": stdio["median_ms"] < MCP_TARGET_MS},
    }
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), "machine": machine("debugpy", "mcp"),
            "loadavg_1m": {"before": load_before[0], "after": os.getloadavg()[0]},
            "warmup": options.warmup, "steps": options.steps, "steps_off": options.steps_off,
            "results": results, "targets": targets}


def report(data: dict[str, Any]) -> None:
    m = data["machine"]
    print(f"\nstep latency, {data['date']}; {data['warmup']} warm-up steps, then {data['steps']} measured "
          f"(nodelay on) / {data['steps_off']} (nodelay off) `step over` per variant, interleaved")
    print(f"machine: {m['nproc']} CPUs, {m['cpu']}; {m['kernel']}; Python {m['python']}; debugpy {m['debugpy']}; "
          f"mcp {m['mcp']}; load average {data['loadavg_1m']['before']:.2f} before, "
          f"{data['loadavg_1m']['after']:.2f} after\n")
    header = f"{'variant':<14} {'nodelay':<8} {'median ms':>10} {'p90 ms':>8} {'min ms':>8} {'x raw':>6}"
    print(header)
    print("-" * len(header))
    for r in data["results"]:
        print(f"{r['variant']:<14} {'on' if r['nodelay'] else 'off':<8} {r['median_ms']:>10.2f} {r['p90_ms']:>8.2f} "
              f"{r['min_ms']:>8.2f} {r['ratio_to_raw']:>6.2f}")
    print()
    for r in data["results"]:
        if "dap_requests_per_step" in r:
            requests = ", ".join(f"{k} {v:g}" for k, v in r["dap_requests_per_step"].items())
            print(f"{r['variant']}, nodelay {'on: ' if r['nodelay'] else 'off:'} DAP requests per step: {requests}")
    for r in data["results"]:
        if "debugger_step" in r:
            inner = r["debugger_step"]["median_ms"]
            print(f"{r['variant']}, nodelay {'on: ' if r['nodelay'] else 'off:'} SessionHandle.step median {inner:.2f} ms, "
                  f"the MCP layers around it ~{r['median_ms'] - inner:.2f} ms")
    raw = next(r for r in data["results"] if r["variant"] == RawDap.name and r["nodelay"])
    for floor in (r for r in data["results"] if r["variant"] in (McpFloor.name, McpFloorWire.name, EchoWire.name)):
        alone = "the hand-off between processes alone" if floor["variant"] == EchoWire.name else "the protocol alone"
        print(f"{floor['variant']}: {alone} costs {floor['median_ms']:.2f} ms a call; "
              f"{MCP_TARGET_RATIO:g}x raw leaves {raw['median_ms'] * (MCP_TARGET_RATIO - 1):.2f} ms for all that MCP adds")
    t = data["targets"]
    for key, who in (("ratio_to_raw", "mcp-stdio (the Python SDK's client)"),
                     ("ratio_to_raw_node_client", "mcp-node (the TypeScript SDK's client)"),
                     ("ratio_to_raw_thin_client", "mcp-wire (a thin client)")):
        print(f"{chr(10) if key == 'ratio_to_raw' else ''}target: {who}, nodelay on, within {t[key]['limit']:g}x of raw-dap: "
              f"{t[key]['value']:.2f}x -> {'MET' if t[key]['met'] else 'NOT MET'}")
    print(f"target: mcp-stdio (nodelay on) median under {t['median_ms']['limit']:g} ms: "
          f"{t['median_ms']['value']:.2f} ms -> {'MET' if t['median_ms']['met'] else 'NOT MET'}")
    if data.get("leftover_children"):
        print(f"\nwarning: {data['leftover_children']} child process(es) were still alive at the end and were killed")


def main() -> int:
    if "--languages" in sys.argv:  # every language's adapter, MCP against raw DAP: bench/languages.py
        import languages

        sys.argv.remove("--languages")
        asyncio.run(languages.main())
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200, help="measured steps per variant, nodelay on (default 200)")
    parser.add_argument("--steps-off", type=int, default=50,
                        help="measured steps per variant, nodelay off, where a step takes ~0.25 s (default 50)")
    parser.add_argument("--warmup", type=int, default=10, help="unmeasured steps per variant first (default 10)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    parser.add_argument("--keep-samples", action="store_true", help="put every sample in the JSON")
    options = parser.parse_args()
    if options.steps < 1 or options.steps_off < 1 or options.warmup < 0:
        parser.error("--steps and --steps-off must be at least 1, --warmup at least 0")
    try:
        data = asyncio.run(run(options))
    finally:
        leftovers = kill_leftovers()
    data["leftover_children"] = leftovers
    report(data)
    write_json(options.json, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
