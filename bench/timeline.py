"""Where a `step` spends its time: a timeline of one step inside `dap2mcp serve`, beside the raw DAP client's.

Run:  .venv/bin/python bench/timeline.py [--steps 300] [--warmup 10]

step_latency.py says how much slower the MCP step is than the raw DAP sequence; this says where. It
steps three sessions in turn, as step_latency.py does, so each process is cold at its turn: the raw
DAP client, dap2mcp through the thin client, and a second dap2mcp whose internals stamp the time at
each stage of a step (this file, run as `timeline.py --serve STATS`, patches them in before serving).
The DAP traffic is stamped on both sides the same way (the first request sent and message received
under each name), so the two timelines line up at `> next`. Printed: the median time of every stamp
in ms from the start of the step (for the server, `SessionHandle.step` entered; the stamps before it are
negative), the raw client's alongside.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import functools
import inspect
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
Stamps = dict[str, float]


def stamp_dap(stamps: Stamps) -> None:
    """Stamp the first request sent and message received under each command or event name, and the
    last message received."""
    from dap2mcp.dap import client

    write, dispatch = client.DapClient._write, client.DapClient._dispatch

    def _write(self: Any, message: dict[str, Any]) -> None:
        stamps.setdefault(f"> {message.get('command')}", time.perf_counter())
        write(self, message)

    def _dispatch(self: Any, message: dict[str, Any]) -> None:
        now = time.perf_counter()
        stamps.setdefault(f"< {message.get('command') or message.get('event')}", now)
        stamps["< the last DAP message"] = now
        dispatch(self, message)

    client.DapClient._write, client.DapClient._dispatch = _write, _dispatch  # type: ignore[method-assign]


def stamp_around(owner: Any, name: str, stamps: Stamps, before: str | None, after: str | None) -> None:
    """Replace owner.name by a wrapper that stamps `before` on entry and `after` on return."""
    original = getattr(owner, name)

    def mark(label: str | None) -> None:
        if label is not None:
            stamps[label] = time.perf_counter()

    if inspect.iscoroutinefunction(original):
        @functools.wraps(original)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            mark(before)
            result = await original(*args, **kwargs)
            mark(after)
            return result
    else:
        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            mark(before)
            result = original(*args, **kwargs)
            mark(after)
            return result
    setattr(owner, name, wrapper)


def serve(stats_path: str) -> None:
    """`dap2mcp serve` with stamps; at exit, the median of each stamp over the steps, to stats_path."""
    import anyio

    from dap2mcp.server import app, build_server, results, stdio
    from dap2mcp.session import answer, handle
    from dap2mcp.session.stop import paused, recorder
    from dap2mcp.snapshots import store

    stamps: Stamps = {}
    steps: list[Stamps] = []
    receive = stdio._Incoming.receive

    async def stamped_receive(self: Any) -> Any:
        if not getattr(self, "_stamped", False):
            readline = self._readline

            async def stamped_readline() -> bytes:
                line = await readline()
                stamps.clear()
                stamps["line read"] = time.perf_counter()
                return line
            self._readline, self._stamped = stamped_readline, True
        message = await receive(self)
        stamps["request parsed"] = time.perf_counter()
        return message

    stdio._Incoming.receive = stamped_receive  # type: ignore[method-assign]
    send = stdio._Outgoing.send

    async def stamped_send(self: Any, item: Any) -> None:
        stamps["answer to write"] = time.perf_counter()
        await send(self, item)
        stamps["answer written"] = time.perf_counter()
        if "step" in stamps:
            steps.append(dict(stamps))

    stdio._Outgoing.send = stamped_send  # type: ignore[method-assign]
    stamp_dap(stamps)
    for owner, name, before, after in [
        (app.DebugServer, "call_tool", "tool called (SDK dispatch done)", "tool returned"),
        (handle.SessionHandle, "step", "step", None),
        (answer, "result", "stopped; building the result", "context built"),
        (recorder.StopRecorder, "_stop_snapshot", "stop snapshot: build", "stop snapshot: built"),
        (store.SnapshotStore, "record_stop", "stop snapshot: stored", None),
        (paused, "view_context", "context: from the view", None),
        (recorder.StopRecorder, "changes", "context: changes", "context: changes done"),
        (results, "ok", "result: dump", "result: dumped"),
    ]:
        stamp_around(owner, name, stamps, before, after)

    def write_stats() -> None:
        measured = steps[len(steps) // 10:]  # the first tenth: the warm-up
        Path(stats_path).write_text(json.dumps(medians(measured, "step")))

    atexit.register(write_stats)
    anyio.run(stdio.serve, build_server())


def medians(runs: list[Stamps], origin: str) -> dict[str, float]:
    names = {name for run in runs for name in run}
    return {name: statistics.median((run[name] - run[origin]) * 1000 for run in runs if name in run) for name in names}


async def measure(options: argparse.Namespace, stats_path: str) -> tuple[dict[str, float], dict[str, float]]:
    import step_latency as sl

    from wire_client import WireClient

    raw_stamps: Stamps = {}
    raw_steps: list[Stamps] = []
    stamp_dap(raw_stamps)

    class StampedRaw(sl.RawDap):
        async def step(self) -> None:
            raw_stamps.clear()
            raw_stamps["step"] = time.perf_counter()
            await super().step()
            raw_stamps["step done"] = time.perf_counter()
            raw_steps.append(dict(raw_stamps))

        def start_measuring(self) -> None:
            super().start_measuring()
            raw_steps.clear()

    class Stamped(sl.McpWire):
        name = "mcp-wire, stamped"

        async def open(self, stack: Any) -> None:
            params = sl.stdio_params()
            client = await WireClient.start([params.command, __file__, "--serve", stats_path], env=params.env,
                                            cwd=params.cwd)
            stack.push_async_callback(client.close)
            self.client = client  # type: ignore[assignment]
            await self.start_debugging(stack)

    sl.VARIANTS[:] = [StampedRaw, sl.McpWire, Stamped]
    variants = await sl.run_setting(True, sl.marked_line(sl.PROGRAM, sl.MARKER), options.warmup, options.steps)
    for variant in variants:
        print(f"{variant.name:<18} median {statistics.median(variant.times) * 1000:.2f} ms a step")
    return medians(raw_steps, "step"), json.loads(Path(stats_path).read_text())


def main() -> int:
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=300, help="measured steps per session (default 300)")
    parser.add_argument("--warmup", type=int, default=10, help="unmeasured steps per session first (default 10)")
    options = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from benchkit import kill_leftovers

    with tempfile.TemporaryDirectory() as tmp:
        try:
            raw, server = asyncio.run(measure(options, f"{tmp}/stats.json"))
        finally:
            kill_leftovers()
    print(f"\n{'stamp':<34} {'dap2mcp ms':>10} {'raw ms':>8}")
    for name, at in sorted(server.items(), key=lambda item: item[1]):
        print(f"{name:<34} {at:>10.3f} {raw[name]:>8.3f}" if name in raw else f"{name:<34} {at:>10.3f}")
    print(f"{'step done (raw client)':<34} {'':>10} {raw['step done']:>8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
