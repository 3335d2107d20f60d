"""A Node step with its context: raw DAP on js-debug, and dap2mcp's `step` tool on the same js-debug.

Run:  .venv/bin/python bench/node_step.py [--raw-only] [--steps 50] [--warmup 5] [--variants all] [--json FILE]

Every session debugs bench/programs/loop.js to the breakpoint before a loop of a million turns and then
repeats `next`. The raw client (dap2mcp.dap's DapClient, nothing above it) does what js-debug asks of any
client: `initialize` + `launch` (type pwa-node) + `configurationDone` on the parent connection; on the
reverse request `startDebugging`, a second connection to the same server with `initialize` + `launch` of the
configuration it names, the breakpoint and `configurationDone`. A step, timed from the request to the last
answer, is `next`, its `stopped` event, `stackTrace` (20 frames), `scopes` of the top frame and `variables`
of every scope that is not expensive (sent together): what dap2mcp's step returns.

The variants are where a delayed ACK can be avoided (without any, a step waits out two or three of Linux's
40 ms delayed ACKs, see bench/README.md). Three knobs:
  client     TCP_NODELAY on the client's two DAP sockets (what dap2mcp.dap.connect_tcp sets).
  server     js-debug's server started as `node --require` dap2mcp's preload (adapters/js_debug_nodelay.cjs):
             every socket js-debug accepts or opens sends at once.
  inspector  TCP_NODELAY on the program's end of its inspector link (adapters.node.unstall_inspectors).
and the variants: plain (none), client, quickack (client, plus TCP_QUICKACK re-armed on the client's sockets
before every request and at every stop), server (client + server), inspector (client + inspector), both
(all three: what dap2mcp does), both-noclient (server + inspector: what the client's own option adds).
Without --raw-only a `dap2mcp` row is added: `dap2mcp serve` over stdio, its `step` tool (over) timed from the
call to the parsed result, with everything dap2mcp does (TCP_NODELAY in js-debug and on the inspector link).
The sessions of one run are open together and stepped in turn (the order rotating every step), so load from
elsewhere on the machine falls on all of them alike.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import os
import re
import shutil
import socket
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from dap2mcp.adapters.node import JS_DEBUG, NODELAY_PRELOAD, unstall_inspectors
from dap2mcp.dap import DapClient, Transport, connect_tcp, spawn_listening
from dap2mcp.session.program.link import CLIENT_CAPABILITIES

from benchkit import kill_leftovers, machine, marked_line, write_json
from wire_client import WireClient

HERE = Path(__file__).resolve().parent
PROGRAM = HERE / "programs" / "loop.js"
MARKER = "// the benchmark's breakpoint"
MAX_FRAMES = 20  # what session.context asks stackTrace for
TIMEOUT = 30.0
LISTENING = re.compile(r"listening at (?P<host>[\d.]+):(?P<port>\d+)")
INITIALIZE = {**CLIENT_CAPABILITIES, "adapterID": "pwa-node", "supportsStartDebuggingRequest": True}
KNOBS = {  # variant: (client, server, inspector)
    "plain": (False, False, False), "client": (True, False, False), "quickack": (True, False, False),
    "server": (True, True, False), "inspector": (True, False, True), "both": (True, True, True),
    "both-noclient": (False, True, True),
}
VARIANTS = tuple(KNOBS)


def launch_configuration(node: str) -> dict[str, Any]:
    return {"type": "pwa-node", "request": "launch", "name": "loop.js", "program": str(PROGRAM), "cwd": str(HERE),
            "runtimeExecutable": node, "outputCapture": "std", "console": "internalConsole"}


def set_nodelay(transport: Transport, on: bool) -> None:
    sock = transport.writer.get_extra_info("socket")
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, int(on))


def quickack(transport: Transport) -> None:
    sock = transport.writer.get_extra_info("socket")
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)


# -- raw DAP -----------------------------------------------------------------------------------


class RawSession:
    """js-debug's two connections, driven by hand: the parent launches, the child is where the program stops."""

    def __init__(self, variant: str, node: str) -> None:
        self.variant = variant
        self.client_nodelay, self.server_nodelay, self.inspector_nodelay = KNOBS[variant]
        self.node = node
        self.parent: DapClient | None = None
        self.child: DapClient | None = None
        self.stops: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.child_initialized = asyncio.Event()
        self.pending: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.thread_id = 0

    def _on_child_event(self, event: str, body: dict[str, Any]) -> None:
        if event == "initialized":
            self.child_initialized.set()
        elif event == "stopped":
            self.stops.put_nowait(body)
        elif event in ("terminated", "_closed"):
            self.stops.put_nowait({"_ended": event, **body})

    async def _start_debugging(self, arguments: dict[str, Any]) -> dict[str, Any]:
        if not self.pending.done():
            self.pending.set_result(arguments)
        return {}

    def _sockets(self, transport: Transport) -> None:
        set_nodelay(transport, self.client_nodelay)  # connect_tcp sets it; the variants without take it off

    async def _stopped(self) -> dict[str, Any]:
        body = await asyncio.wait_for(self.stops.get(), TIMEOUT)
        if "_ended" in body:
            raise RuntimeError(f"the debuggee ended during the benchmark: {body}")
        self.thread_id = body.get("threadId", self.thread_id)
        if self.variant == "quickack":
            assert self.child is not None
            quickack(self.child.transport)
        return body

    async def start(self, line: int) -> None:
        preload = ("--require", str(NODELAY_PRELOAD)) if self.server_nodelay else ()
        server = JS_DEBUG.require("node")
        transport = await spawn_listening([self.node, *preload, server, "0", "127.0.0.1"], LISTENING,
                                          cwd=os.path.dirname(server), on_output=lambda category, text: None)
        self._sockets(transport)
        host, port = transport.writer.get_extra_info("peername")[:2]
        parent = self.parent = DapClient(transport)
        parent.on_reverse_request("startDebugging", self._start_debugging)
        parent.start()
        await parent.request("initialize", INITIALIZE, timeout=TIMEOUT)
        launched = parent.send("launch", launch_configuration(self.node))
        await parent.request("configurationDone", timeout=TIMEOUT)
        await parent.wait("launch", launched, TIMEOUT)
        configuration = (await asyncio.wait_for(self.pending, TIMEOUT))["configuration"]
        if self.inspector_nodelay:
            assert transport.process is not None
            if not unstall_inspectors(transport.process.pid):
                raise RuntimeError("found no inspector link to change (not Linux 5.6+, or not allowed to ptrace?)")

        transport = await connect_tcp(host, int(port))
        self._sockets(transport)
        child = self.child = DapClient(transport)
        child.on_event(self._on_child_event)
        child.start()
        await child.request("initialize", INITIALIZE, timeout=TIMEOUT)
        launched = child.send("launch", configuration)
        await asyncio.wait_for(self.child_initialized.wait(), TIMEOUT)
        await child.request("setBreakpoints", {"source": {"path": str(PROGRAM)}, "breakpoints": [{"line": line}]})
        await child.request("configurationDone", timeout=TIMEOUT)
        await child.wait("launch", launched, TIMEOUT)
        await self._stopped()

    async def step(self) -> None:
        child = self.child
        assert child is not None
        if self.variant == "quickack":
            quickack(child.transport)
        stopped = asyncio.ensure_future(self._stopped())
        await child.request("next", {"threadId": self.thread_id}, timeout=TIMEOUT)
        await stopped
        frames = (await child.request("stackTrace", {"threadId": self.thread_id, "startFrame": 0,
                                                     "levels": MAX_FRAMES}))["stackFrames"]
        scopes = (await child.request("scopes", {"frameId": frames[0]["id"]}))["scopes"]
        await asyncio.gather(*(child.request("variables", {"variablesReference": scope["variablesReference"]})
                               for scope in scopes if not scope.get("expensive")))

    async def close(self) -> None:
        for client in (self.child, self.parent):
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.close()


# -- dap2mcp -----------------------------------------------------------------------------------


class Dap2mcpSession:
    """`dap2mcp serve` over stdio (bench/wire_client.py, a plain JSON-RPC client), `debug` on PROGRAM with the
    breakpoint, then `step {mode: over}`, timed from the call to the parsed result: the same js-debug steps, the
    whole context read and shaped (frames, scopes, locals, a snapshot recorded) and sent over MCP."""

    variant = "dap2mcp"

    def __init__(self, node: str) -> None:
        self.node = node
        self.client: WireClient | None = None

    async def start(self, line: int) -> None:
        env = {**os.environ, "PATH": f"{os.path.dirname(self.node)}{os.pathsep}{os.environ.get('PATH', '')}"}
        self.client = await WireClient.start([sys.executable, "-m", "dap2mcp", "serve"], env=env, cwd=str(HERE))
        started = await self.client.call_tool("debug", {"mode": "source", "path": str(PROGRAM),
                                                        "breakpoints": [{"file": str(PROGRAM), "line": line}]})
        if not started.get("success") or started.get("state") != "paused":
            raise RuntimeError(f"dap2mcp: debug did not stop at the breakpoint: {started}")

    async def step(self) -> None:
        assert self.client is not None
        data = await self.client.call_tool("step", {"mode": "over"})
        if not data.get("success") or data.get("state") != "paused":
            raise RuntimeError(f"dap2mcp: step did not stop: {data}")

    async def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.call_tool("stop", {"all": True})
            await self.client.close()


# -- the run -----------------------------------------------------------------------------------


async def run(args: argparse.Namespace) -> dict[str, Any]:
    line = marked_line(PROGRAM, MARKER)
    sessions: dict[str, RawSession | Dap2mcpSession] = {variant: RawSession(variant, args.node) for variant in args.variants}
    if not args.raw_only:
        sessions["dap2mcp"] = Dap2mcpSession(args.node)
    times: dict[str, list[float]] = {variant: [] for variant in sessions}
    try:
        for session in sessions.values():
            await session.start(line)
        order = list(sessions)
        for turn in range(args.warmup + args.steps):
            for variant in order:
                started = time.perf_counter()
                await sessions[variant].step()
                if turn >= args.warmup:
                    times[variant].append((time.perf_counter() - started) * 1000)
            order = order[1:] + order[:1]
    finally:
        for session in sessions.values():
            await session.close()
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--raw-only", action="store_true", help="only the raw DAP variants, not dap2mcp's")
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--variants", default="all", help=f"comma-separated, of {', '.join(VARIANTS)}; or all")
    parser.add_argument("--node", default="node", help="the node running js-debug and the program (a path or a name on PATH)")
    parser.add_argument("--json", help="write the figures to this file too")
    args = parser.parse_args()
    args.node = os.path.abspath(shutil.which(args.node) or args.node)  # js-debug runs in its own folder: a relative path would miss
    args.variants = list(VARIANTS) if args.variants == "all" else args.variants.split(",")
    if unknown := set(args.variants) - set(VARIANTS):
        parser.error(f"unknown variants: {', '.join(sorted(unknown))}")
    load = os.getloadavg()[0]
    times = asyncio.run(run(args))
    leftovers = kill_leftovers()
    print(f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, load average {load:.1f} before; "
          f"{args.warmup} warm-up steps, then {args.steps} measured per variant")
    print(f"{'variant':<14} {'median ms':>10} {'p10':>8} {'p90':>8} {'max':>8}")
    for variant, values in times.items():
        print(f"{variant:<14} {statistics.median(values):>10.2f} {percentile(values, 0.1):>8.2f} "
              f"{percentile(values, 0.9):>8.2f} {max(values):>8.2f}")
    write_json(args.json, {"machine": machine("mcp"), "node": args.node, "steps": args.steps, "warmup": args.warmup,
                           "load_before": load, "leftovers": leftovers, "times_ms": times})
    sys.exit(1 if leftovers else 0)


if __name__ == "__main__":
    main()
