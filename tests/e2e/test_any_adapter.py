"""Any DAP adapter given by its command (or address) and its `launch` arguments, driven through the all-defaults
profile under a real MCP client over stdio. The adapter is debugpy's own, started as a plain command and told
nothing dap2mcp's debugpy profile would tell it: every tool still works, so nothing Python-specific leaks into
the generic path. Also the user's adapters.toml (a name, chosen by extension, listed and checked by `doctor`)
and what is refused, with which code."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
import sys

import psutil
import pytest

from conftest import PROGRAMS, free_port, locals_of, marker, stdio_tools

COUNTER = PROGRAMS / "counter.py"
WORK, END = marker(COUNTER, "work"), marker(COUNTER, "end")
ADAPTER = [sys.executable, "-m", "debugpy.adapter"]
LAUNCH = {"type": "python", "request": "launch", "program": "${path}", "args": "${args}", "cwd": "${cwd}",
          "env": "${env}", "console": "internalConsole"}


async def hunt(tools, **debug_arguments):
    """A bug hunt through counter.py with 5 rounds: a condition, a read, a change, a step out, the end."""
    ctx = await tools.ok("debug", mode="source", args=["5"], timeout=60,
                         breakpoints=[{"file": str(COUNTER), "line": WORK, "condition": "i == 3"}], **debug_arguments)
    assert ctx["reason"] == "breakpoint" and ctx["location"]["line"] == WORK, ctx
    assert locals_of(ctx) == {"i": "3", "value": "9"}, ctx
    assert (await tools.ok("evaluate", expression="value + i"))["value"] == "12"
    assert (await tools.ok("set-variable", name="value", value="100"))["value"] == "100"
    out = await tools.ok("step", mode="out")
    assert out["reason"] == "step" and out["frames"][0]["function"] == "main", out
    await tools.ok("breakpoint", file=str(COUNTER), line=END)
    ctx = await tools.ok("continue")
    assert ctx["location"]["line"] == END and locals_of(ctx)["total"] == "146", ctx  # 1 + 4 + 100 + 16 + 25
    ended = await tools.ok("continue")
    assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
    assert "total 146" in ended["output"]["text"], ended["output"]
    return ended


async def test_an_adapter_given_by_its_command_runs_a_whole_bug_hunt():
    async with stdio_tools() as tools:
        await hunt(tools, path=str(COUNTER), adapter={"command": ADAPTER, "launch": LAUNCH})
        sessions = (await tools.ok("info", type="sessions"))["items"]
        assert [s["adapter"] for s in sessions] == ["custom"], sessions

        # the rest of the tools, on the same profile: a restart keeps the breakpoints, snapshots diff two stops
        ctx = await tools.ok("restart", args=["4"])
        assert ctx["location"]["line"] == WORK and locals_of(ctx)["i"] == "3", ctx
        first = (await tools.ok("snapshot_create", label="at 3"))["snapshot"]["id"]
        await tools.ok("set-variable", name="value", value="7")
        second = (await tools.ok("snapshot_create", label="changed"))["snapshot"]["id"]
        diff = await tools.ok("snapshot_diff", snapshot_id_1=first, snapshot_id_2=second)
        assert [(m["path"], m["oldValue"], m["newValue"]) for m in diff["diff"]["modified"]] == [("value", "9", "7")], diff
        assert (await tools.ok("context", frameId=ctx["frames"][1]["id"]))["location"]["function"] == "main"
        assert (await tools.ok("info", type="threads"))["items"], "threads listed"
        await tools.ok("clear-breakpoints", all=True)
        ended = await tools.ok("continue")
        assert ended["exitCode"] == 0 and "total 28" in ended["output"]["text"], ended  # 1 + 4 + 7 + 16
        assert "total 28\n" in (await tools.ok("output"))["text"]  # stderr's lines may come after it
        await tools.ok("stop")


async def test_an_adapter_already_listening_is_reached_at_its_address():
    port = free_port()
    adapter = await asyncio.create_subprocess_exec(*ADAPTER, "--host", "127.0.0.1", "--port", str(port),
                                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        async with stdio_tools() as tools:
            listening = psutil.Process(adapter.pid)
            for _ in range(300):  # until it listens (a connection to look would be its one client)
                if any(c.status == psutil.CONN_LISTEN and c.laddr.port == port for c in listening.net_connections()):
                    break
                await asyncio.sleep(0.05)
            await hunt(tools, path=str(COUNTER), adapter={"address": f"127.0.0.1:{port}", "launch": LAUNCH})
    finally:
        with contextlib.suppress(ProcessLookupError):  # it ends with its client's session
            adapter.kill()
        await adapter.wait()


def _config(folder, text):
    (folder / "dap2mcp").mkdir(parents=True, exist_ok=True)
    (folder / "dap2mcp" / "adapters.toml").write_text(text)


TOML = f"""
[adapters.pyadapter]
command = {ADAPTER!r}
extensions = [".pyw"]
launch = {{ type = "python", request = "launch", program = "${{path}}", args = "${{args}}", console = "internalConsole" }}
""".replace("'", '"')


async def test_a_named_adapter_of_the_users_config_is_chosen_by_name_and_by_extension(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    _config(tmp_path / "config", TOML)
    script = tmp_path / "counter.pyw"
    shutil.copy(COUNTER, script)
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(script), args=["2"], timeout=60,
                             breakpoints=[{"file": str(script), "line": END}])
        assert ctx["location"]["line"] == END and locals_of(ctx)["total"] == "5", ctx
        assert (await tools.ok("info", type="sessions"))["items"][0]["adapter"] == "pyadapter"
        await hunt(tools, path=str(COUNTER), adapter="pyadapter")

    doctor = subprocess.run([sys.executable, "-m", "dap2mcp", "doctor"], capture_output=True, text=True, timeout=120)
    row = next(line for line in doctor.stdout.splitlines() if line.split()[1:2] == ["pyadapter"])
    assert row.split()[0] == ".pyw" and "ok" in row.split() and "answers initialize" in row, row


async def test_a_config_adapter_that_does_not_answer_is_listed_as_such_by_doctor(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    _config(tmp_path, '[adapters.mute]\ncommand = ["cat"]\nlaunch = {}\n')
    doctor = subprocess.run([sys.executable, "-m", "dap2mcp", "doctor"], capture_output=True, text=True, timeout=120)
    row = next(line for line in doctor.stdout.splitlines() if line.split()[1:2] == ["mute"])
    assert "MISSING" in row and "did not answer `initialize`" in row, row
    assert doctor.returncode == 1


@pytest.mark.parametrize(("adapter", "mode", "code", "words"), [
    ({"command": ADAPTER, "address": "127.0.0.1:9", "launch": {}}, "source", "INVALID_ARGUMENT", "one of them"),
    ({"command": ADAPTER}, "source", "INVALID_ARGUMENT", "`launch` or `attach`"),
    ({"command": ["no-such-adapter-here"], "launch": {}}, "source", "ADAPTER_NOT_FOUND", "no-such-adapter-here"),
    ({"command": ADAPTER, "launch": LAUNCH}, "test", "NOT_SUPPORTED", "not available with the custom adapter"),
    ({"command": ADAPTER, "attach": {}}, "source", "INVALID_ARGUMENT", "give `launch` arguments"),
    ("nope", "source", "INVALID_ARGUMENT", "unknown adapter 'nope'"),
])
async def test_an_adapter_that_cannot_serve_is_refused_with_its_reason(adapter, mode, code, words):
    async with stdio_tools() as tools:
        message = await tools.error("debug", code, mode=mode, path=str(COUNTER), adapter=adapter)
        assert words in message, message
        await hunt(tools, path=str(COUNTER), adapter={"command": ADAPTER, "launch": LAUNCH})  # the server goes on


async def test_a_broken_config_file_is_named_in_the_refusal(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    async with stdio_tools() as tools:
        _config(tmp_path, "[adapters.x\n")
        assert "adapters.toml is not TOML" in await tools.error("debug", "INVALID_ARGUMENT", mode="source",
                                                                 path=str(COUNTER))
        _config(tmp_path, '[adapters.node]\ncommand = ["x"]\nlaunch = {}\n')
        assert "built-in adapter's name" in await tools.error("debug", "INVALID_ARGUMENT", mode="source",
                                                               path=str(COUNTER))
        _config(tmp_path, '[adapters.y]\ncommand = ["x"]\nlaunhc = {}\n')
        assert "adapter 'y'" in await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(COUNTER))
