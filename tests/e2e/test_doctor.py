"""`dap2mcp doctor`, and what a missing adapter looks like to an agent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import StdioServerParameters

from dap2mcp.adapters import tool_dir

from conftest import ROOT, Tools, connect, locals_of, marker, path_without, server_params

DOCTOR = [sys.executable, "-m", "dap2mcp", "doctor"]
DATA = tool_dir.data_dir()
"""The data directory scripts/install.sh filled (`dap2mcp install`)."""
JS_DEBUG = DATA / "js-debug"


def test_doctor_lists_every_language_with_versions() -> None:
    done = subprocess.run(DOCTOR, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.strip()]
    table = {(r[1], r[3]): r for r in rows if len(r) > 4}
    assert "(debugpy 1.8.22)" in " ".join(table[("debugpy", "debugpy")])  # the adapter dap2mcp runs, pinned
    for adapter, command in [("debugpy", "python3"), ("debugpy", "debugpy"), ("lldb", "lldb-dap-19"), ("gdb", "cdtDebugAdapter"),
                             ("gdb", "gdb"), ("delve", "dlv"), ("delve", "go"), ("lldb", "rustc"),
                             ("lldb", "cargo"), ("node", "node"), ("ruby", "ruby"), ("ruby", "rdbg")]:  # cargo: Cargo projects, Rust's mode test
        row = table[(adapter, command)]
        assert row[4] == "ok" and any(ch.isdigit() for ch in " ".join(row[6:])), row  # found, with a version
    js_debug = table[("node", "js-debug")]  # installed by `dap2mcp install node` into the data directory
    assert js_debug[4] == "ok" and js_debug[5] == str(JS_DEBUG / "vsDebugServer.js"), js_debug
    assert " ".join(js_debug[6:]) == "(js-debug-dap v1.112.0)", js_debug
    assert "everything is installed" in done.stdout


def _data_without_delve(tmp_path: Path) -> Path:
    """A data directory of dap2mcp's with everything `dap2mcp install` put in the real one but Delve."""
    data = tmp_path / "data" / "dap2mcp"
    (data / "bin").mkdir(parents=True)
    for entry in DATA.iterdir():
        if entry.name != "bin":
            (data / entry.name).symlink_to(entry)
    for command in (DATA / "bin").iterdir():
        if command.name != "dlv":
            (data / "bin" / command.name).symlink_to(command)
    return data


def _without_delve(tmp_path: Path) -> dict[str, str]:
    """No Delve on PATH, nor in dap2mcp's data directory (where `dap2mcp install go` puts one)."""
    _data_without_delve(tmp_path)
    return {**os.environ, "PATH": path_without("dlv", folder=tmp_path / "bin"), "XDG_DATA_HOME": str(tmp_path / "data")}


DELVE_INSTALL = "dap2mcp install go"  # the fix doctor and debug name


def test_doctor_says_how_to_install_what_is_missing(tmp_path: Path) -> None:
    done = subprocess.run(DOCTOR, capture_output=True, text=True, timeout=120, env=_without_delve(tmp_path))
    assert done.returncode == 1
    missing = [line for line in done.stdout.splitlines() if "MISSING" in line]
    assert len(missing) == 1 and "dlv" in missing[0], missing
    assert f"MISSING  install with: {DELVE_INSTALL}  (Delve 1.27.2, built with Go 1.25 or later; with an older Go: " \
        "apt-get install -y delve)" in missing[0], missing


def test_the_delve_in_dap2mcps_tool_directory_comes_before_the_one_on_path(old_delve: Path, tmp_path: Path) -> None:
    tool_bin = _data_without_delve(tmp_path) / "bin"
    (tool_bin / "dlv").symlink_to(_installed_delve())
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"),  # an old Delve first on PATH, as Debian's would be
           "PATH": f"{old_delve.parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(DOCTOR, capture_output=True, text=True, timeout=120, env=env)
    row = next(line for line in done.stdout.splitlines() if " dlv " in line)
    assert f"ok       {tool_bin / 'dlv'}  (Version: 1.27.2)" in row, row


def _installed_delve() -> str:
    """The Delve `dap2mcp install go` built, where dap2mcp looks first."""
    delve = DATA / "bin" / "dlv"
    assert delve.is_file(), f"{delve} is missing: run scripts/install.sh"
    return str(delve)


OLD_DELVE = "1.25.2"  # debugs programs of Go 1.22 to 1.25 (its pkg/goversion), so not this machine's Go 1.26's


@pytest.fixture
def old_delve(tmp_path: Path) -> Path:
    """A stand-in for Delve 1.25.2 that answers `dlv version` as it does, and fails anything else: the suite
    fetches no second Delve from the module proxy (a user's project would not), and no more than `version` may
    be asked of a Delve that is refused."""
    stand_in = tmp_path / "old" / "dlv"
    stand_in.parent.mkdir()
    stand_in.write_text(f'#!/bin/sh\n[ "$1" = version ] || exit 3\nprintf "Delve Debugger\\nVersion: {OLD_DELVE}\\n'
                        f'Build: $Id: af3df277866d7175e816eab14e56611053d4cdea $\\n"\n')
    stand_in.chmod(0o755)
    return stand_in


def _with_delve(delve: Path, tmp_path: Path) -> dict[str, str]:
    (_data_without_delve(tmp_path) / "bin" / "dlv").symlink_to(delve)
    return {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "DAP2MCP_CACHE": str(tmp_path / "cache")}


def test_doctor_says_when_delve_is_too_old_for_this_go(old_delve: Path, tmp_path: Path) -> None:
    go = subprocess.run(["go", "env", "GOVERSION"], capture_output=True, text=True, check=True).stdout.strip()
    done = subprocess.run(DOCTOR, capture_output=True, text=True, timeout=120, env=_with_delve(old_delve, tmp_path))
    assert done.returncode == 1, done.stdout
    missing = [line for line in done.stdout.splitlines() if "MISSING" in line]
    assert len(missing) == 1, done.stdout
    assert f"Delve {OLD_DELVE} debugs programs of Go 1.22 to 1.25, and go here is {go.removeprefix('go')}" in missing[0]
    assert DELVE_INSTALL in missing[0] and "go version" in done.stdout, missing  # the Go it found is listed too


async def test_debug_refuses_a_delve_too_old_for_this_go_before_building(old_delve: Path, tmp_path: Path) -> None:
    env = _with_delve(old_delve, tmp_path)
    params = StdioServerParameters(command=server_params().command, args=server_params().args, env=env)
    async with connect("stdio", "legacy", params=params) as client:
        tools = Tools(client)
        message = await tools.error("debug", "ADAPTER_NOT_FOUND", mode="source", path=str(ROOT / "examples" / "go"))
        assert f"Delve {OLD_DELVE} debugs programs of Go 1.22 to 1.25, and go there is 1.26" in message, message
        assert DELVE_INSTALL in message, message
        assert not (tmp_path / "cache").exists()  # nothing was built
        # an executable is judged by the Go that built it, not by the machine's (Delve itself is a Go 1.26 program)
        message = await tools.error("debug", "ADAPTER_NOT_FOUND", mode="binary", path=_installed_delve())
        assert f"cannot debug {_installed_delve()}: Delve {OLD_DELVE} debugs programs of Go 1.22 to 1.25, and the " \
               "Go that built it is 1.26" in message, message


async def test_a_missing_adapter_is_adapter_not_found_with_the_install_command(tmp_path: Path) -> None:
    params = StdioServerParameters(command=server_params().command, args=server_params().args,
                                   env=_without_delve(tmp_path))
    async with connect("stdio", "legacy", params=params) as client:
        tools = Tools(client)
        message = await tools.error("debug", "ADAPTER_NOT_FOUND", mode="source", path=str(ROOT / "examples" / "go"))
        assert DELVE_INSTALL in message and "doctor" in message
        source = ROOT / "examples" / "c" / "invoice.c"  # the other languages still work
        ctx = await tools.ok("debug", mode="source", path=str(source),
                             breakpoints=[{"file": str(source), "line": marker(source, "loop")}])
        assert ctx["state"] == "paused"
        await tools.ok("stop")


async def test_binary_mode_picks_the_adapter_from_the_executable(tmp_path: Path) -> None:
    c_exe, go_exe = tmp_path / "invoice_c", tmp_path / "invoice_go"
    subprocess.run(["cc", "-g", "-O0", "-o", str(c_exe), str(ROOT / "examples" / "c" / "invoice.c")], check=True)
    subprocess.run(["go", "build", "-gcflags=all=-N -l", "-o", str(go_exe), "."], cwd=ROOT / "examples" / "go",
                   check=True)
    async with connect("stdio", "legacy") as client:
        tools = Tools(client)
        for exe, source in [(c_exe, ROOT / "examples" / "c" / "invoice.c"),
                            (go_exe, ROOT / "examples" / "go" / "main.go")]:
            ctx = await tools.ok("debug", mode="binary", path=str(exe), args=["0"],
                                 breakpoints=[{"file": str(source), "line": marker(source, "print")}])
            assert ctx["state"] == "paused" and ctx["location"]["line"] == marker(source, "print"), ctx
            assert locals_of(ctx)["total"] == "3000"  # no discount: the bug cannot show
            modules = await tools("info", type="modules")  # lldb-dap lists modules, Delve does not
            assert modules["success"] is (exe == c_exe), modules
            await tools.ok("stop")
