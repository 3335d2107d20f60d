"""`dap2mcp doctor`, and what a missing adapter looks like to an agent."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from mcp import StdioServerParameters

from conftest import ROOT, Tools, connect, locals_of, marker, server_params

DOCTOR = [sys.executable, "-m", "dap2mcp", "doctor"]
JS_DEBUG = ROOT / "vendor" / "js-debug"
VERIFY_JS_DEBUG = ROOT / "scripts" / "verify-js-debug.sh"


def test_doctor_lists_every_language_with_versions() -> None:
    done = subprocess.run(DOCTOR, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.strip()]
    table = {(r[1], r[3]): r for r in rows if len(r) > 4}
    assert "(debugpy 1.8.22)" in " ".join(table[("debugpy", "debugpy")])  # the adapter dap2mcp runs, pinned
    for adapter, command in [("debugpy", "python3"), ("debugpy", "debugpy"), ("lldb", "lldb-dap-19"), ("gdb", "cdtDebugAdapter"),
                             ("gdb", "gdb"), ("delve", "dlv"), ("delve", "go"), ("lldb", "rustc"),
                             ("lldb", "cargo"), ("node", "node")]:  # cargo: Cargo projects, Rust's mode test
        row = table[(adapter, command)]
        assert row[4] == "ok" and any(ch.isdigit() for ch in " ".join(row[6:])), row  # found, with a version
    js_debug = table[("node", "js-debug")]  # installed by scripts/install.sh into the checkout
    assert js_debug[4] == "ok" and js_debug[5] == str(JS_DEBUG / "vsDebugServer.js"), js_debug
    assert " ".join(js_debug[6:]) == "(js-debug-dap v1.112.0)", js_debug
    assert "everything is installed" in done.stdout


def _verify_js_debug(copy: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(VERIFY_JS_DEBUG), str(copy)], capture_output=True, text=True, timeout=60)


def _changed_copy(tmp_path: Path, file: str) -> Path:
    """A copy of the installed js-debug with one byte of `file` changed."""
    assert (JS_DEBUG / "vsDebugServer.js").is_file(), f"{JS_DEBUG} is missing: run scripts/install.sh"
    copy = tmp_path / file.replace("/", "_")
    shutil.copytree(JS_DEBUG, copy)
    data = bytearray((copy / file).read_bytes())
    data[len(data) // 2] ^= 0x01
    (copy / file).write_bytes(bytes(data))
    return copy


def test_the_installers_check_passes_the_installed_js_debug(tmp_path: Path) -> None:
    assert (JS_DEBUG / "vsDebugServer.js").is_file(), f"{JS_DEBUG} is missing: run scripts/install.sh"
    done = _verify_js_debug(JS_DEBUG)
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_the_installers_check_refuses_a_tampered_js_debug(tmp_path: Path) -> None:
    # the entry script, against the checksums the package carries for it
    done = _verify_js_debug(_changed_copy(tmp_path, "vsDebugServer.js"))
    assert done.returncode == 1, done.stderr
    assert "CHECKSUM MISMATCH" in done.stderr and "vsDebugServer.js has sha256" in done.stderr, done.stderr
    # a file the package carries no checksum for, which runs inside every debugged program: against ours
    for file in ("bootloader.js", "vendor/acorn.js"):
        done = _verify_js_debug(_changed_copy(tmp_path, file))
        assert done.returncode == 1, done.stderr
        assert "CHECKSUM MISMATCH" in done.stderr and f"{file}: FAILED" in done.stderr, done.stderr


def _path_without(*commands: str, tmp_path: Path) -> str:
    """A PATH with every directory's programs but the named ones (linked into one directory)."""
    kept = tmp_path / "bin"
    kept.mkdir()
    for directory in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(directory):
            continue
        for name in os.listdir(directory):
            if name not in commands and not (kept / name).exists():
                (kept / name).symlink_to(os.path.join(directory, name))
    return str(kept)


def test_doctor_says_how_to_install_what_is_missing(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": _path_without("dlv", tmp_path=tmp_path)}
    done = subprocess.run(DOCTOR, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 1
    missing = [line for line in done.stdout.splitlines() if "MISSING" in line]
    assert len(missing) == 1 and "dlv" in missing[0] and "apt-get install -y delve" in missing[0]


async def test_a_missing_adapter_is_adapter_not_found_with_the_install_command(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": _path_without("dlv", tmp_path=tmp_path)}
    params = StdioServerParameters(command=server_params().command, args=server_params().args, env=env)
    async with connect("stdio", "legacy", params=params) as client:
        tools = Tools(client)
        message = await tools.error("debug", "ADAPTER_NOT_FOUND", mode="source", path=str(ROOT / "examples" / "go"))
        assert "apt-get install -y delve" in message and "doctor" in message
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
