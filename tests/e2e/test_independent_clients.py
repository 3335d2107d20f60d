"""Clients that are not ours: the MCP Inspector CLI (stdio and HTTP) and the official conformance
suite (HTTP). Both come from tests/npm, which scripts/test.sh installs; a missing one fails here."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

import pytest

from conftest import INVOICE, ROOT, TOOL_COUNT, http_server, shown

NPM = ROOT / "tests" / "npm" / "node_modules"
BIN = NPM / ".bin"
CONFORMANCE = NPM / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
SERVE = [sys.executable, "-m", "dap2mcp", "serve"]
SCENARIOS = ["server-initialize", "tools-list", "resources-list", "resources-subscribe", "resources-unsubscribe",
             "ping", "dns-rebinding-protection", "logging-set-level", "server-sse-multiple-streams"]


def node_env() -> dict[str, str]:
    """Node 22 from tests/npm first on PATH, so the tools' `#!/usr/bin/env node` finds it."""
    assert (BIN / "node").exists(), f"{BIN / 'node'} is missing: run scripts/test.sh, which installs tests/npm"
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}


def inspector(*arguments: str, fails: bool = False) -> Any:
    """What the Inspector printed: the result on stdout, or (`fails`) the error on stderr with exit 1."""
    done = subprocess.run([str(BIN / "mcp-inspector"), "--cli", *arguments], capture_output=True, text=True,
                          timeout=120, env=node_env(), stdin=subprocess.DEVNULL)
    assert done.returncode == (1 if fails else 0), f"exit {done.returncode}: {done.stdout[-1000:]} {done.stderr[-2000:]}"
    return json.loads((done.stderr if fails else done.stdout).strip())


def test_inspector_over_stdio():
    listed = inspector(*SERVE, "--method", "tools/list")
    names = [t["name"] for t in listed["tools"]]
    assert names[:5] == ["debug", "stop", "restart", "breakpoint", "clear-breakpoints"] and len(names) == TOOL_COUNT
    assert all(t["inputSchema"]["type"] == "object" and t.get("annotations") for t in listed["tools"])

    called = inspector(*SERVE, "--method", "tools/call", "--tool-name", "debug", "--tool-arg", "mode=source",
                       f"path={INVOICE}", "stopOnEntry=true")
    assert called.get("isError") in (None, False)
    assert called["structuredContent"]["success"] is True and called["structuredContent"]["state"] == "paused"
    assert called["structuredContent"]["location"]["file"] == shown(INVOICE, called["structuredContent"])

    assert inspector(*SERVE, "--method", "resources/list") == {"resources": []}  # each call is a new server
    refused = inspector(*SERVE, "--method", "resources/read", "--uri", "debugger://session", fails=True)
    assert "no debug session" in refused["error"]["message"]


def test_inspector_over_http_sees_the_session_it_started():
    with http_server() as url:
        def call(*arguments: str) -> Any:
            return inspector(url, "--transport", "http", *arguments)

        started = call("--method", "tools/call", "--tool-name", "debug", "--tool-arg", "mode=source",
                       f"path={INVOICE}", "stopOnEntry=true")
        assert started["structuredContent"]["state"] == "paused"
        listed = call("--method", "resources/list")
        assert [r["uri"] for r in listed["resources"]][:3] == ["debugger://session", "debugger://breakpoints",
                                                                "debugger://threads"]
        session = call("--method", "resources/read", "--uri", "debugger://session")
        document = json.loads(session["contents"][0]["text"])
        assert document["state"] == "Paused" and document["pauseReason"] == "Entry"
        assert call("--method", "tools/call", "--tool-name", "stop")["structuredContent"]["success"] is True


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_conformance_suite(scenario: str):
    assert CONFORMANCE.exists(), f"{CONFORMANCE} is missing: run scripts/test.sh, which installs tests/npm"
    with http_server() as url:
        done = subprocess.run([str(BIN / "node"), str(CONFORMANCE), "server", "--url", url, "--scenario", scenario],
                              capture_output=True, text=True, timeout=120, env=node_env(), stdin=subprocess.DEVNULL)
    summary = re.search(r"Passed: (\d+)/(\d+), (\d+) failed", done.stdout)
    assert summary, f"no result from the conformance suite (exit {done.returncode}): {done.stdout[-3000:]}"
    passed, total, failed = map(int, summary.groups())
    assert failed == 0 and passed == total > 0, done.stdout[-3000:]
