"""`dap2mcp serve --http`: a real server subprocess, real HTTP clients, both protocol versions."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from typing import Any

import httpx2
import psutil
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import LoggingMessageNotificationParams

from conftest import PROGRAMS, TOOL_COUNT, Tools, cmdline_of, connect, free_port, http_server, marker, wait_until

COUNTER = PROGRAMS / "counter.py"
MODES = ["legacy", "2026-07-28"]
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "test", "version": "1"}}}
JSON_AND_SSE = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def post(url: str, headers: dict[str, str] | None = None) -> httpx2.Response:
    return httpx2.post(url, json=INITIALIZE, headers={**JSON_AND_SSE, **(headers or {})}, timeout=10)


@pytest.mark.parametrize("mode", MODES)
async def test_a_debug_session_over_http(mode: str):
    with http_server() as url:
        async with connect("http", mode, url) as client:
            tools = Tools(client)
            names = [t.name for t in (await client.list_tools()).tools]
            assert names[:3] == ["debug", "stop", "restart"] and len(names) == TOOL_COUNT
            stop = await tools.ok("debug", mode="source", path=str(COUNTER), args=["4"],
                                  breakpoints=[{"file": str(COUNTER), "line": marker(COUNTER, "work")}])
            assert stop["state"] == "paused" and stop["location"]["function"] == "work"
            assert (await tools.ok("evaluate", expression="i * 10"))["value"] == "10"
            assert (await tools.ok("step", mode="out"))["location"]["function"] == "main"
            await tools.ok("clear-breakpoints", all=True)
            ended = await tools.ok("continue")
            assert ended["state"] == "terminated" and ended["exitCode"] == 0
            assert "total 30" in ended["output"]["text"]
            await tools.ok("stop")


async def test_a_token_is_required_on_every_request_when_set():
    with http_server("--token", "s3cret") as url:
        assert post(url).status_code == 401
        refused = post(url, {"Authorization": "Bearer wrong"})
        assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
        assert "Authorization: Bearer" in refused.json()["message"]
        assert post(url, {"Authorization": "Bearer s3cret"}).status_code == 200
        statuses: list[int] = []

        async def note(response: httpx2.Response) -> None:
            statuses.append(response.status_code)

        async with httpx2.AsyncClient(event_hooks={"response": [note]}) as http:
            with pytest.raises(ExceptionGroup) as failed:  # the SDK's client fails in its task group
                async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
                    await client.list_tools()
        assert failed.group_contains(MCPError, match="error response"), failed.value
        assert statuses and set(statuses) == {401}, statuses  # refused for the token, and nothing answered
        async with connect("http", "legacy", url, token="s3cret") as client:
            assert len((await client.list_tools()).tools) == TOOL_COUNT


async def test_the_token_can_come_from_the_environment():
    with http_server(env={"DAP2MCP_TOKEN": "from-env"}) as url:
        assert post(url).status_code == 401
        assert post(url, {"Authorization": "Bearer from-env"}).status_code == 200


def test_dns_rebinding_is_refused():
    with http_server() as url:
        assert post(url, {"Origin": "http://evil.example"}).status_code == 403
        assert post(url, {"Origin": "http://localhost.evil.example:80"}).status_code == 403
        assert post(url, {"Host": "evil.example"}).status_code == 421
        port = url.split(":")[2].split("/")[0]
        assert post(url, {"Host": f"attacker.example:{port}"}).status_code == 421
        assert post(url, {"Origin": f"http://localhost:{port}"}).status_code == 200
        assert post(url, {"Origin": f"http://127.0.0.1:{port}", "Host": f"localhost:{port}"}).status_code == 200


def test_binding_beyond_loopback_needs_a_token():
    refused = subprocess.run([sys.executable, "-m", "dap2mcp", "serve", "--http", "--host", "0.0.0.0",
                              "--port", str(free_port())], capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and refused.stdout == ""
    assert "not a loopback address, without a token" in refused.stderr and "--token" in refused.stderr
    assert "Traceback" not in refused.stderr
    with http_server("--host", "0.0.0.0", "--token", "t0k") as url:  # with one it serves, and checks it
        assert post(url).status_code == 401
        assert post(url, {"Authorization": "Bearer t0k"}).status_code == 200


def test_a_named_host_is_accepted_with_the_token():
    with http_server("--host", "0.0.0.0", "--token", "t", "--allow-host", "debug.internal") as url:
        port = url.split(":")[2].split("/")[0]
        auth = {"Authorization": "Bearer t"}
        assert post(url, {**auth, "Host": f"debug.internal:{port}"}).status_code == 200
        assert post(url, {**auth, "Host": f"other.internal:{port}"}).status_code == 421


def test_host_names_and_the_auth_scheme_match_in_any_case():
    """Host names and the `Bearer` scheme are case-insensitive (RFC 9110, RFC 7235); browsers send
    host names in lower case whatever the user typed."""
    with http_server("--host", "0.0.0.0", "--token", "t", "--allow-host", "Debug.Internal") as url:
        port = url.split(":")[2].split("/")[0]
        for host in ("debug.internal", "Debug.Internal", "DEBUG.INTERNAL"):
            assert post(url, {"Authorization": "Bearer t", "Host": f"{host}:{port}"}).status_code == 200, host
        for scheme in ("bearer", "BEARER"):
            assert post(url, {"Authorization": f"{scheme} t"}).status_code == 200, scheme
        assert post(url, {"Authorization": "Basic t"}).status_code == 401
        assert post(url, {"Authorization": "Bearer T"}).status_code == 401  # the token itself is exact
        assert post(url, {"Authorization": "Bearer t", "Origin": f"http://Debug.Internal:{port}"}).status_code == 200
        assert post(url, {"Authorization": "Bearer t", "Host": f"other.internal:{port}"}).status_code == 421
    with http_server() as url:
        port = url.split(":")[2].split("/")[0]
        assert post(url, {"Host": f"LOCALHOST:{port}", "Origin": f"HTTP://Localhost:{port}"}).status_code == 200


def _serve(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dap2mcp", "serve", "--http", *options],
                          capture_output=True, text=True, timeout=30)


def test_a_port_it_cannot_serve_on_is_said_plainly_and_never_announced():
    for port in ("99999", "-1", "http"):
        refused = _serve("--port", port)
        assert refused.returncode == 2 and "a port is a number from 0 to 65535" in refused.stderr, refused.stderr
    with http_server() as url:  # a port already taken: the bind fails, and nothing claims to serve on it
        taken = _serve("--port", url.split(":")[2].split("/")[0])
        assert taken.returncode != 0 and "address already in use" in taken.stderr
        assert "serving MCP" not in taken.stderr and "Traceback" not in taken.stderr


def test_port_zero_announces_the_port_it_got_and_bracketed_ipv6_is_understood():
    proc = subprocess.Popen([sys.executable, "-m", "dap2mcp", "serve", "--http", "--port", "0"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("dap2mcp: serving MCP at http://127.0.0.1:") and ":0/" not in line, line
        url = line.split()[-1]
        assert post(url).status_code == 200  # the announced URL is where it serves
    finally:
        proc.terminate()
        proc.wait(10)
    refused = _serve("--host", "[::]", "--port", "0")  # a wildcard however written: it needs a token
    assert refused.returncode == 2 and "without a token" in refused.stderr


async def test_a_log_level_is_each_clients_own_and_hits_reach_the_client_that_asked():
    """Two clients on one server: the one that set `info` gets the hits of a tracepoint the other drives;
    the other, which never asked, gets none."""
    received: dict[str, list[Any]] = {"watcher": [], "driver": []}

    def collect(who: str) -> Any:
        async def on_log(params: LoggingMessageNotificationParams) -> None:
            received[who].append(params.data)
        return on_log

    with http_server() as url:
        async with connect("http", "legacy", url, logging_callback=collect("watcher")) as watcher, \
                connect("http", "legacy", url, logging_callback=collect("driver")) as driver:
            await watcher.session.set_logging_level("info")
            tools = Tools(driver)
            await tools.ok("debug", mode="source", path=str(COUNTER), args=["3"], stopOnEntry=True)
            await tools.ok("breakpoint", file=str(COUNTER), line=marker(COUNTER, "loop"), logMessage="i={i}")
            assert (await tools.ok("continue"))["state"] == "terminated"
            async def logged() -> list:
                return list(received["watcher"])

            await wait_until(logged, lambda got: len(got) >= 3, guard=30, normal="the hits arrive with the end", every=0.05)
            await tools.ok("stop")
    assert [d["message"] for d in received["watcher"]] == ["i=1", "i=2", "i=3"], received
    assert received["driver"] == []


def _started(*options: str) -> tuple[subprocess.Popen[str], str]:
    """`serve --http --port 0` and the URL it announces."""
    proc = subprocess.Popen([sys.executable, "-m", "dap2mcp", "serve", "--http", "--port", "0", *options],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    return proc, proc.stderr.readline().split()[-1]


def test_a_client_that_hangs_up_mid_request_is_no_error_on_stderr():
    proc, url = _started()
    try:
        host, port = url.split("/")[2].split(":")
        with socket.create_connection((host, int(port))) as sock:  # promises 1000 bytes, sends 11, leaves
            sock.sendall(f"POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                         "Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n"
                         '{"jsonrpc"'.encode())
        assert post(url).status_code == 200  # and it serves on
    finally:
        proc.terminate()
        _, errors = proc.communicate(timeout=20)
    assert "Traceback" not in errors and "ClientDisconnect" not in errors, errors


async def test_a_hang_up_signal_ends_the_debug_session_gracefully():
    """uvicorn handles SIGINT and SIGTERM; SIGHUP killed the server at once, before the DAP disconnect."""
    proc, url = _started()
    try:
        async with connect("http", "legacy", url) as client:
            stop = await Tools(client).ok("debug", mode="source", path=str(COUNTER), stopOnEntry=True)
            assert stop["state"] == "paused"
            debuggee = [p for p in psutil.Process(proc.pid).children(recursive=True) if str(COUNTER) in " ".join(cmdline_of(p))]
            assert debuggee
            proc.send_signal(signal.SIGHUP)
            assert proc.wait(20) in (0, -signal.SIGTERM, 128 + signal.SIGTERM)
    finally:
        if proc.poll() is None:
            proc.kill()
        _, errors = proc.communicate(timeout=20)
    gone = psutil.wait_procs(debuggee, timeout=10)[1] == []
    assert gone and "Traceback" not in errors, errors
