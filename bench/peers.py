"""The same bug hunt through dap2mcp and two peer MCP debug servers, side by side in one run.

Run:  .venv/bin/python bench/peers.py [--rounds 3] [--plot bench/results/peers.png] [--json FILE]

Peers (installed on first run into bench/.peers/, pinned): dap-mcp 0.1.5 from PyPI (with mcp 1.30.0:
it does not run on the mcp 2 SDK) and @debugmcp/mcp-debugger 0.24.2 from npm. All three drive
debugpy on bench/programs/loop.py (a loop of a million turns) over stdio, through the same SDK client. The hunt: launch to
the breakpoint in the loop, 20 steps over each with the program's state (locals), 5 evaluations,
a variable change, run to the exit. Measured per server: total wall time, the median of a step with
its state, and the bytes of tool output an agent reads (the text content of every result).
Every server runs in the program's folder. dap2mcp runs twice more: with `--text json` (results' text in
compact JSON rather than TOON), and from the repository's root (so files are named `bench/programs/loop.py`).
A server that has no way to do something gets it marked, not faked.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from benchkit import kill_leftovers, machine, marked_line, write_json

HERE = Path(__file__).resolve().parent
PROGRAM = HERE / "programs" / "loop.py"
PROJECT = PROGRAM.parent
"""Every server runs in the program's folder, as an MCP client starts servers in the project it works on."""
PEERS = HERE / ".peers"
DAP_MCP = ("dap-mcp==0.1.5", "mcp==1.30.0")
MCP_DEBUGGER = "@debugmcp/mcp-debugger@0.24.2"
STEPS, EVALUATIONS = 20, 5
VENV_BIN = Path(sys.executable).parent


def install_peers() -> None:
    venv = PEERS / "venv"
    if not (venv / "bin" / "dap-mcp").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *DAP_MCP], check=True)
    if not (PEERS / "node" / "node_modules" / "@debugmcp" / "mcp-debugger").exists():
        (PEERS / "node").mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(PEERS / "node"), "--no-audit", "--no-fund",
                        "--loglevel=error", MCP_DEBUGGER], check=True)


@dataclass
class Run:
    server: str
    steps_ms: list[float] = field(default_factory=list)
    output_bytes: int = 0
    total_s: float = 0.0
    missing: list[str] = field(default_factory=list)
    last: dict[str, Any] = field(default_factory=dict, repr=False)

    async def call(self, client: Client, tool: str, **arguments: Any) -> str:
        result = await client.call_tool(tool, arguments)
        text = "".join(getattr(part, "text", "") for part in result.content)
        self.output_bytes += len(text.encode())
        self.last = result.structured_content or {}
        return text


def env_with_debugpy() -> dict[str, str]:
    """mcp-debugger runs the `python3` on PATH and wants debugpy in it: ours has it."""
    return {**os.environ, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}"}


async def hunt_dap2mcp(run: Run, loop: int, *serve_args: str, cwd: Path = PROJECT) -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve", *serve_args], cwd=cwd)
    async with Client(params, mode="legacy") as client:
        await run.call(client, "debug", mode="source", path=str(PROGRAM), breakpoints=[{"file": str(PROGRAM), "line": loop}])
        await run.call(client, "clear-breakpoints", all=True)
        for _ in range(STEPS):
            started = time.perf_counter()
            await run.call(client, "step", mode="over")  # the result holds the locals
            run.steps_ms.append((time.perf_counter() - started) * 1000)
        for n in range(EVALUATIONS):
            await run.call(client, "evaluate", expression=f"total * {n + 1}")
        await run.call(client, "set-variable", name="total", value="5")
        for _ in range(5):  # the uncaught SystemExit stops once (as in VS Code), then the program ends
            await run.call(client, "continue")
            if run.last.get("state") != "paused":
                break
        ended = run.last.get("state") == "terminated" or run.last.get("error", {}).get("code") == "TERMINATED"
        assert ended, run.last
        await run.call(client, "stop")


async def hunt_mcp_debugger(run: Run, loop: int) -> None:
    cli = PEERS / "node" / "node_modules" / "@debugmcp" / "mcp-debugger" / "dist" / "cli"
    params = StdioServerParameters(command="node", args=[str(cli), "stdio"], env=env_with_debugpy(), cwd=PROJECT)
    async with Client(params, mode="legacy") as client:
        session = json.loads(await run.call(client, "create_debug_session", language="python"))["sessionId"]
        await run.call(client, "set_breakpoint", sessionId=session, file=str(PROGRAM), line=loop)
        await run.call(client, "start_debugging", sessionId=session, scriptPath=str(PROGRAM))
        await run.call(client, "clear_breakpoints", sessionId=session)
        for _ in range(STEPS):
            started = time.perf_counter()
            await run.call(client, "step_over", sessionId=session)
            await run.call(client, "get_local_variables", sessionId=session)  # a step returns no state
            run.steps_ms.append((time.perf_counter() - started) * 1000)
        for n in range(EVALUATIONS):
            await run.call(client, "evaluate_expression", sessionId=session, expression=f"total * {n + 1}")
        run.missing.append("variable change (no tool; evaluate refuses assignments)")
        await run.call(client, "continue_execution", sessionId=session)
        await run.call(client, "close_debug_session", sessionId=session)


async def hunt_dap_mcp(run: Run, loop: int) -> None:
    config = PEERS / "dap-mcp.json"
    config.write_text(json.dumps({
        "type": "debugpy", "debuggerPath": sys.executable, "debuggerArgs": ["-m", "debugpy.adapter"],
        "python": [sys.executable], "program": str(PROGRAM), "cwd": str(PROGRAM.parent),
        "sourceDirs": [str(PROGRAM.parent)]}))
    params = StdioServerParameters(command=str(PEERS / "venv" / "bin" / "dap-mcp"), args=["--config", str(config)],
                                   cwd=PROJECT)
    async with Client(params, mode="legacy") as client:
        await run.call(client, "set_breakpoint", path=str(PROGRAM), line=loop)
        await run.call(client, "launch")
        await run.call(client, "remove_all_breakpoints")
        for _ in range(STEPS):
            started = time.perf_counter()
            await run.call(client, "next")  # its reply shows the frame's variables
            run.steps_ms.append((time.perf_counter() - started) * 1000)
        for n in range(EVALUATIONS):
            await run.call(client, "evaluate", expression=f"total * {n + 1}")
        run.missing.append("variable change (no tool)")
        await run.call(client, "continue_execution")
        await run.call(client, "terminate")


HUNTS: dict[str, Callable[[Run, int], Awaitable[None]]] = {
    "dap2mcp": hunt_dap2mcp, "dap-mcp": hunt_dap_mcp, "mcp-debugger": hunt_mcp_debugger,
    "dap2mcp --text json": lambda run, loop: hunt_dap2mcp(run, loop, "--text", "json"),
    "dap2mcp from the repository": lambda run, loop: hunt_dap2mcp(run, loop, cwd=HERE.parent)}


async def measure(rounds: int) -> list[Run]:
    loop = marked_line(PROGRAM, "the benchmark's breakpoint")
    results: dict[str, list[Run]] = {name: [] for name in HUNTS}
    for n in range(rounds):
        order = list(HUNTS)[n % len(HUNTS):] + list(HUNTS)[: n % len(HUNTS)]  # rotate who goes first
        for name in order:
            run = Run(name)
            started = time.perf_counter()
            try:
                await asyncio.wait_for(HUNTS[name](run, loop), 300)
            except Exception as exc:  # a peer failing is a result to report, not a crash of the bench
                run.missing.append(f"failed: {type(exc).__name__}: {exc}"[:200])
            run.total_s = time.perf_counter() - started
            results[name].append(run)
    return [min(runs, key=lambda r: r.total_s) for runs in results.values()]


def plot(runs: list[Run], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 4.5))
    for run in runs:
        axes.plot(range(1, len(run.steps_ms) + 1), run.steps_ms, marker="o", label=run.server)
    axes.set_xlabel("step")
    axes.set_ylabel("ms per step with its state")
    axes.set_yscale("log")
    axes.set_title("Step over with state, Python (debugpy), one bug hunt")
    axes.legend()
    figure.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    print(f"wrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="hunts per server; the fastest is reported")
    parser.add_argument("--plot", default=str(HERE / "peers.png"))
    parser.add_argument("--json")
    options = parser.parse_args()
    install_peers()
    print(f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC  {machine('mcp', 'debugpy')}")
    runs = asyncio.run(measure(options.rounds))
    print("\n| server | total s | step median ms | output bytes | not possible |")
    print("|---|---:|---:|---:|---|")
    for run in runs:
        median = statistics.median(run.steps_ms) if run.steps_ms else float("nan")
        print(f"| {run.server} | {run.total_s:.2f} | {median:.1f} | {run.output_bytes} | "
              f"{'; '.join(run.missing) or '-'} |")
    plot([run for run in runs if " " not in run.server], options.plot)  # the three servers, as served
    write_json(options.json, {"machine": machine("mcp", "debugpy"), "runs": [{k: v for k, v in run.__dict__.items() if k != "last"} for run in runs],
                              "leftovers": kill_leftovers()})


if __name__ == "__main__":
    main()
