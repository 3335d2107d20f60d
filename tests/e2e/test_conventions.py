"""What a well-made MCP server does in any client: progress for slow starts, a stable tool order,
an install that pipx can make, logs on stderr only."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from dap2mcp.server.results import lean_view

from conftest import INVOICE, ROOT, TOOL_COUNT, Endpoint, Tools, decode_text, marker, stdio_tools

MODES = ["legacy", "2026-07-28"]


@pytest.mark.parametrize("mode", MODES)
async def test_debug_and_restart_report_progress_when_asked(mode: str, endpoint: Endpoint):
    async with endpoint.client(mode) as client:
        seen: list[tuple[float, str | None]] = []

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            seen.append((progress, message))

        arguments = {"mode": "source", "path": str(INVOICE),
                     "breakpoints": [{"file": str(INVOICE), "line": marker(INVOICE, "loop")}]}
        result = await client.call_tool("debug", arguments, progress_callback=on_progress)
        assert result.structured_content["state"] == "paused"
        assert [p for p, _ in seen] == [1, 2, 3]  # increasing, one per stage
        assert "runtime" in seen[0][1] and "debugpy" in seen[1][1] and "first stop" in seen[2][1]

        seen.clear()
        await client.call_tool("restart", {}, progress_callback=on_progress)
        assert len(seen) == 3 and "debugpy" in seen[1][1]

        seen.clear()  # no token, no progress: the plain call still works
        assert (await Tools(client).ok("stop"))["state"] == "terminated"


async def test_tools_are_listed_in_the_same_order_everywhere(endpoint: Endpoint):
    orders = []
    for mode in MODES:
        async with endpoint.client(mode) as client:
            orders.append([t.name for t in (await client.list_tools()).tools])
    assert orders[0] == orders[1]
    async with endpoint.client("legacy") as client:
        for tool in (await client.list_tools()).tools:  # one paragraph, written for the agent reading it
            assert tool.description and "\n" not in tool.description and "  " not in tool.description, tool.name
            assert len(tool.description) > 60, tool.name
    assert orders[0][:4] == ["debug", "stop", "restart", "breakpoint"] and len(set(orders[0])) == TOOL_COUNT


# Each default a tool's input schema advertises, as the docs state it: (tool, argument, value, doc, the doc's words).
# The words must be in the doc as written, so a doc that changes its number fails here as a schema that does.
DOCUMENTED_DEFAULTS = [
    ("debug", "timeout", 30, "limits.md", "| `debug`, `restart` (`timeout`) | 30 s from the call;"),
    ("debug", "justMyCode", True, "tools.md", "`justMyCode` (Python, default true:"),
    ("debug", "childProcesses", True, "tools.md", "`childProcesses` (Python, default true:"),
    ("debug", "tcpNoDelay", True, "limits.md", "`tcpNoDelay` (Python, default on)"),
    ("restart", "timeout", 30, "limits.md", "| `debug`, `restart` (`timeout`) | 30 s from the call;"),
    ("stop", "timeout", 5, "tools.md", "`timeout` (5 s, at most 60)"),
    ("continue", "timeout", 30, "tools.md", "`continue`, `step` and `pause` wait at most `timeout` seconds (default 30"),
    ("step", "timeout", 30, "tools.md", "`continue`, `step` and `pause` wait at most `timeout` seconds (default 30"),
    ("wait", "timeout", 30, "limits.md", "| `continue`, `step`, `wait` (`timeout`) | 30 s,"),
    ("pause", "timeout", 10, "tools.md", "| `pause` | `threadId`, `timeout` (10 s) |"),
    ("output", "offset", 0, "tools.md", "| `output` | `offset` (0), `limit` (8000) |"),
    ("output", "limit", 8000, "tools.md", "| `output` | `offset` (0), `limit` (8000) |"),
    ("context", "maxFrames", 20, "tools.md", "`frameId`, `maxFrames` (20),"),
    ("evaluate", "timeout", 10, "tools.md", "`frameId`, `timeout` (10 s), `depth` (0, at most 5"),
    ("evaluate", "depth", 0, "tools.md", "`frameId`, `timeout` (10 s), `depth` (0, at most 5"),
    ("info", "maxFrames", 10, "tools.md", "`maxFrames` (10, at most 100: frames per thread"),
    ("info", "offset", 0, "tools.md", "`offset` (0) and `limit` (200, at most 200"),
    ("info", "limit", 200, "tools.md", "`offset` (0) and `limit` (200, at most 200"),
    ("disassemble", "instructionCount", 20, "limits.md", "| `instructionCount` (`disassemble`) | 1 to 2000, default 20 |"),
    ("memory", "count", 256, "tools.md", "`count` (1 to 4096, default 256)"),
    ("snapshot_create", "frame_index", 0, "snapshots.md", "`frame_index` (0), `depth` (0, at most 10)"),
    ("snapshot_create", "depth", 0, "snapshots.md", "`frame_index` (0), `depth` (0, at most 10)"),
    ("snapshot_diff", "format", "variables", "snapshots.md", "`format` (`variables` or `pact`)"),
    ("snapshot_export", "offset", 0, "snapshots.md", "`offset` (0)"),
    ("record", "on", True, "tools.md", "`on` (default true"),
]
UNSTATED = (None, False, "", 0)
"""Defaults that mean the argument is absent (none, off, empty, from the start): the docs need not state them."""


async def test_every_advertised_default_is_the_one_the_docs_state():
    """An agent reads the defaults in tools/list, a person in docs/: a default changed in one (evaluate's 10 s
    `timeout`) and not the other passed every test."""
    for tool, argument, _, doc, words in DOCUMENTED_DEFAULTS:
        assert words in (ROOT / "docs" / doc).read_text(), f"docs/{doc} no longer says {words!r} ({tool} {argument})"
    async with stdio_tools() as tools:  # tools/list over stdio, as a client reads it
        advertised = {(tool.name, name): spec["default"] for tool in (await tools.client.list_tools()).tools
                      for name, spec in tool.input_schema.get("properties", {}).items() if "default" in spec}
    documented = {(tool, argument): value for tool, argument, value, _, _ in DOCUMENTED_DEFAULTS}
    assert {key: advertised.get(key, "(none)") for key in documented} == documented
    unstated = {key: value for key, value in advertised.items()
                if key not in documented and not any(value == u and type(value) is type(u) for u in UNSTATED)}
    assert unstated == {}, "defaults the docs do not state"


@pytest.mark.parametrize("mode", MODES)
async def test_the_instructions_name_every_language(mode: str, endpoint: Endpoint):
    """An agent reads them before anything else: they must not send it elsewhere for C, Rust or Go."""
    async with endpoint.client(mode) as client:
        # a client pinned to 2026-07-28 skips `server/discover`, where the instructions are: ask for it
        instructions = client.instructions if mode == "legacy" else (await client.session.send_discover(mode))["instructions"]
        assert instructions and all(language in instructions for language in ("Python", "C,", "C++", "Rust", "Go"))


def answers_over_stdio(command: str, *args: str, env: dict[str, str] | None = None) -> int:
    """How many tools a server started as `command args` lists to a real MCP client."""
    probe = ("import asyncio, sys, json\n"
             "from mcp import Client\n"
             "from mcp.client.stdio import StdioServerParameters\n"
             "async def main():\n"
             f"    params = StdioServerParameters(command={command!r}, args={list(args)!r}, env={env!r})\n"
             "    async with Client(params) as c:\n"
             "        print(len((await c.list_tools()).tools))\n"
             "asyncio.run(main())\n")
    answered = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert answered.returncode == 0, answered.stderr[-3000:]
    return int(answered.stdout.strip())


def checkout_copy(tmp_path: Path) -> Path:
    """The project's files in a scratch directory: building a package writes `build/` and
    `*.egg-info` beside the sources, which must not land in the checkout."""
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", ".venv", "node_modules", "build", "*.egg-info",
                                                                "__pycache__", ".hypothesis", "bench"))
    return copy


def test_uvx_runs_the_server_from_a_checkout(tmp_path: Path):
    uvx = Path(sys.executable).parent / "uvx"
    env = {**os.environ, "UV_CACHE_DIR": str(tmp_path / "uv-cache"), "UV_TOOL_DIR": str(tmp_path / "uv-tools")}
    assert answers_over_stdio(str(uvx), "--from", str(checkout_copy(tmp_path)), "dap2mcp", "serve", env=env) == TOOL_COUNT


def test_pipx_installs_a_working_command(tmp_path: Path):
    """`pipx install .` from this checkout, then the installed `dap2mcp` answers over stdio."""
    env = {**os.environ, "PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(tmp_path / "bin"),
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    installed = subprocess.run([sys.executable, "-m", "pipx", "install", str(checkout_copy(tmp_path))], capture_output=True,
                               text=True, env=env, timeout=600)
    assert installed.returncode == 0, installed.stderr[-3000:]
    command = tmp_path / "bin" / "dap2mcp"
    assert command.exists()
    assert answers_over_stdio(str(command), "serve") == TOOL_COUNT
    helped = subprocess.run([str(command), "--help"], capture_output=True, text=True, timeout=60)
    assert helped.returncode == 0 and "serve" in helped.stdout


async def _step_texts(*serve_args: str) -> tuple[dict, str]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve", *serve_args],
                                   env=dict(os.environ))
    async with Client(params, mode="legacy") as client:
        tools = Tools(client)
        await tools.ok("debug", mode="source", path=str(INVOICE),
                       breakpoints=[{"file": str(INVOICE), "line": marker(INVOICE, "loop")}])
        result = await client.call_tool("step", {"mode": "over"})
        await tools.ok("stop")
    return result.structured_content, result.content[0].text


async def test_the_text_the_model_reads_is_the_structured_content_in_fewer_bytes():
    """By default a result's text is TOON: the structured content's lean view (Tools checks that on every
    call; tests/unit/test_lean_text.py holds what it leaves out), with lists of frames and variables as tables.
    `--text json` writes the structured content whole, as compact JSON."""
    data, toon_text = await _step_texts()
    assert decode_text(toon_text) == lean_view(data, lone_session=True, asked="step") and not toon_text.startswith("{")
    assert "success" not in decode_text(toon_text) and data["success"] is True
    # frames and variables (some with children, some without) are tables: a header, then rows
    assert "frames[3]{id,function,file,line}:" in toon_text
    assert "variables[5]{name,value,type,variablesReference}:" in toon_text
    json_text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    assert len(toon_text.encode()) < 0.85 * len(json_text.encode()), (len(toon_text), len(json_text))

    data, text = await _step_texts("--text", "json")
    assert json.loads(text) == data and data["state"] == "paused"
