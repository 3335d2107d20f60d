"""Shared helpers: paths of the test programs, `# marker:` line lookup, MCP clients."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import psutil
import pytest
import toons
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from dap2mcp.dap.trace import TRACE_ENV
from dap2mcp.server import snapshot_tools
from dap2mcp.server import tools as tools_module
from dap2mcp.server.results import lean_view

import wire_check

ROOT = Path(__file__).resolve().parents[1]
TOOL_COUNT = len(tools_module.TOOLS) + len(snapshot_tools.TOOLS)
"""How many tools every transport lists (each test checks the list it is served, not this count alone)."""
PROGRAMS = ROOT / "tests" / "programs"
INVOICE = ROOT / "examples" / "python" / "invoice.py"


def code_at(path: Path, line: int) -> str:
    """Line `line` of `path` as a stop's `location.text` shows it: without its indent, at most 120 characters."""
    text = path.read_text().splitlines()[line - 1].strip()
    return text if len(text) <= 120 else text[:119] + "\u2026"


def marker(path: Path, name: str) -> int:
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if f"marker: {name}" in text:
            return number
    raise LookupError(f"no marker {name} in {path}")


T = TypeVar("T")


async def wait_until(read: Callable[[], Awaitable[T]], done: Callable[[T], bool], *, guard: float, normal: str,
                     every: float = 0.2) -> T:
    """What `read` gives once `done` holds of it, read again every `every` seconds. A hang guard, not a
    measurement: `guard` is far above the `normal` time (at least 10x), which the failure names beside
    the last thing read, so a failure says what was seen rather than only that time ran out."""
    deadline = time.monotonic() + guard
    while not done(seen := await read()):
        assert time.monotonic() < deadline, f"not done after {guard} s (normally {normal}); last seen: {seen!r}"
        await asyncio.sleep(every)
    return seen


async def pause_on(tools: Tools, lines: Iterable[int], *, guard: float, normal: str, runs_on: float = 0.3) -> dict[str, Any]:
    """A pause that lands on one of `lines`: one that lands elsewhere (a loop not reached yet on a loaded machine, a
    call beside the one the test is about) lets the program run on `runs_on` seconds and pauses again."""
    wanted = set(lines)

    async def pause() -> dict[str, Any]:
        paused = await tools.ok("pause")
        if paused["location"].get("line") not in wanted:
            await tools.ok("continue", timeout=runs_on)
        return paused

    return await wait_until(pause, lambda paused: paused["location"].get("line") in wanted, guard=guard, normal=normal)


def wait_until_sync(read: Callable[[], T], done: Callable[[T], bool], *, guard: float, normal: str,
                    every: float = 0.05) -> T:
    """`wait_until` for code that does not run in an event loop."""
    deadline = time.monotonic() + guard
    while not done(seen := read()):
        assert time.monotonic() < deadline, f"not done after {guard} s (normally {normal}); last seen: {seen!r}"
        time.sleep(every)
    return seen


class Tools:
    """Calls tools and returns their structured content, checking the envelope on every call."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def __call__(self, tool: str, /, **arguments: Any) -> dict[str, Any]:
        result = await self.client.call_tool(tool, arguments)
        data = result.structured_content
        assert isinstance(data, dict), f"{tool}: no structured content: {result.content}"
        assert data["success"] is (not result.is_error), f"{tool}: envelope and isError disagree: {data}"
        text = result.content[0].text if [c.type for c in result.content] == ["text"] else None
        assert text is not None and reads_as(text, data, tool), \
            f"{tool}: the text the model reads is not the structured content's lean view: {result.content}"
        if not data["success"]:
            assert set(data["error"]) == {"code", "message"} and data["error"]["message"], data
        return data

    async def read_json(self, uri: str) -> Any:
        result = await self.client.read_resource(uri)
        return json.loads(result.contents[0].text)

    async def ok(self, tool: str, /, **arguments: Any) -> dict[str, Any]:
        data = await self(tool, **arguments)
        assert data["success"], f"{tool} failed: {data}"
        return data

    async def error(self, tool: str, code: str, /, **arguments: Any) -> str:
        data = await self(tool, **arguments)
        assert not data["success"], f"{tool} should have failed with {code}: {data}"
        assert data["error"]["code"] == code, data
        return data["error"]["message"]


def decode_text(text: str) -> Any:
    """A tool result's text: TOON, or JSON where TOON cannot hold a string (a lone surrogate); a null
    means the same as an absent field (a table's empty cell), so nulls are dropped."""
    return without_nulls(json.loads(text) if text.startswith("{") else toons.loads(text))


def reads_as(text: str, data: dict[str, Any], tool: str) -> bool:
    """Whether a result's text is what the model should read of its structured content: JSON (`--text json`)
    the whole of it, TOON its lean view (server/results.py `lean_view`: the only session's id and the stop a
    call asked for may be left out too)."""
    read = decode_text(text)
    if text.startswith("{"):
        return read == without_nulls(data)
    return read in [without_nulls(lean_view(data, lone_session=lone, asked=asked))
                    for lone in (False, True) for asked in (None, tool)]


def without_nulls(node: Any) -> Any:
    if isinstance(node, dict):
        return {key: without_nulls(value) for key, value in node.items() if value is not None}
    return [without_nulls(item) for item in node] if isinstance(node, list) else node


def shown(path: Path, started: dict[str, Any]) -> str:
    """How results name `path`: relative to the directory a `debug` result gives as `pathsRelativeTo`
    when the file lies below it (tests/e2e/test_paths.py checks the rule itself)."""
    base = Path(started["pathsRelativeTo"])
    return str(path.relative_to(base)) if path.is_relative_to(base) else str(path)


def server_params() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve"], env=dict(os.environ))


@asynccontextmanager
async def stdio_tools() -> AsyncIterator[Tools]:
    """A real MCP client talking to `dap2mcp serve` in a subprocess over stdio."""
    async with connect("stdio", "auto") as client:
        yield Tools(client)


@pytest.fixture(autouse=True)
def wire_checked(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every MCP message a test's client receives and every DAP message sent to a real adapter must
    match its protocol's schema (see wire_check.py). Unit tests talk to scripted peers on purpose."""
    trace = tmp_path / "dap-trace.jsonl"
    if "unit" not in request.node.path.parts:
        monkeypatch.setenv(TRACE_ENV, str(trace))
    wire_check.PROBLEMS.clear()
    yield
    wire_check.check_dap_trace(trace)
    problems, wire_check.PROBLEMS[:] = list(wire_check.PROBLEMS), []
    assert not problems, "messages that do not match the protocol schema:\n" + "\n".join(problems[:10])


def server_processes() -> list[psutil.Process]:
    me = psutil.Process()
    return [p for p in me.children(recursive=True) if "dap2mcp" in " ".join(cmdline_of(p))]


def cmdline_of(proc: psutil.Process) -> list[str]:
    try:
        return proc.cmdline()
    except psutil.Error:
        return []


def locals_of(context: dict[str, Any]) -> dict[str, str]:
    # gdb says Local; js-debug `Local: main`, with a `Block: main` scope per block (loop variables) before it
    scope = next(s for s in context["scopes"] if s["name"] in ("Locals", "Local", "Local variables")  # rdbg's
                 or s["name"].startswith("Local: "))
    return {v["name"]: v["value"] for v in scope["variables"]}


def path_without(*commands: str, folder: Path) -> str:
    """A PATH with every directory's programs but the named ones, linked into `folder` (made here)."""
    folder.mkdir()
    for directory in os.environ["PATH"].split(os.pathsep):
        if os.path.isdir(directory):
            for name in os.listdir(directory):
                if name not in commands and not (folder / name).exists():
                    (folder / name).symlink_to(os.path.join(directory, name))
    return str(folder)


# -- the HTTP transport ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def http_server(*options: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """`dap2mcp serve --http` in a subprocess; yields its `/mcp` URL once it accepts connections."""
    port = free_port()
    with tempfile.TemporaryFile() as errors:
        proc = subprocess.Popen([sys.executable, "-m", "dap2mcp", "serve", "--http", "--port", str(port), *options],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors,
                                env={**os.environ, **(env or {})})
        try:
            deadline = time.monotonic() + 20  # a hang guard: it listens within a second (its imports)
            while True:
                if proc.poll() is not None:
                    errors.seek(0)
                    raise RuntimeError(f"the HTTP server exited with {proc.returncode}: {errors.read().decode()}")
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError("the HTTP server did not start listening within 20 s")
                time.sleep(0.05)
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            assert proc.stdout is not None
            printed = proc.stdout.read()
            proc.stdout.close()
            assert printed == b"", f"the HTTP server wrote to stdout: {printed[:200]!r}"


@asynccontextmanager
async def http_transport(url: str, token: str | None = None, headers: dict[str, str] | None = None) -> AsyncIterator[Any]:
    sent = {**({"Authorization": f"Bearer {token}"} if token else {}), **(headers or {})}
    async with create_mcp_http_client(headers=sent) as http, streamable_http_client(url, http_client=http) as streams:
        yield streams


def connect(transport: str, mode: str, url: str | None = None, params: StdioServerParameters | None = None,
            **options: Any) -> Client:
    """An SDK client over `transport` ("stdio", or "http" to the server at `url`), every message
    it receives checked against the MCP schema."""
    if transport == "stdio":
        return Client(wire_check.checked(stdio_client(params or server_params()), mode), mode=mode, **options)
    assert url is not None, "an HTTP client needs the server's URL"
    return Client(wire_check.checked(http_transport(url, options.pop("token", None)), mode), mode=mode, **options)


@dataclass
class Endpoint:
    """Where a test's server is: a fresh stdio subprocess per client, or one HTTP server."""

    transport: str
    url: str | None = None

    def client(self, mode: str, **options: Any) -> Client:
        return connect(self.transport, mode, self.url, **options)


@pytest.fixture(params=["stdio", "http"])
def endpoint(request: pytest.FixtureRequest) -> Iterator[Endpoint]:
    if request.param == "stdio":
        yield Endpoint("stdio")
        return
    with http_server() as url:
        yield Endpoint("http", url)


async def connect_when_listening(tools: Tools, address: str, **arguments: Any) -> dict[str, Any]:
    """`debug` in mode connect to a `debugpy --listen` just started, once it listens (it takes a moment)."""
    import asyncio

    for _ in range(100):
        data = await tools("debug", mode="connect", address=address, **arguments)
        if data["success"] or "cannot connect" not in data["error"]["message"]:
            assert data["success"], data
            return data
        await asyncio.sleep(0.1)
    raise AssertionError(f"nothing listened at {address}")


@contextmanager
def running(argv: list[str], cwd: Path | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """A program to attach to, once it has said (a line on its stdout) that it runs; killed afterwards."""
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None and proc.stdout.readline()  # it has started
        yield proc
    finally:
        proc.kill()
        proc.wait()
