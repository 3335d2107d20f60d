"""scripts/install-delve.sh, which scripts/install.sh runs for Go: the Delve for the machine's Go, built by
`go install` into dap2mcp's tool directory; nothing done when it is there; one line and a stop where the module
proxy cannot be reached; Debian's Delve left to install.sh where the Go is too old to build this one."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from conftest import ROOT

SCRIPT = ROOT / "scripts" / "install-delve.sh"


def _run(env: dict[str, str], *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), *arguments], capture_output=True, text=True, timeout=600,
                          env={**os.environ, **env}, stdin=subprocess.DEVNULL)


def _installed() -> Path:
    data = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    delve = data / "dap2mcp" / "bin" / "dlv"
    assert delve.is_file(), f"{delve} is missing: run scripts/install.sh"
    return delve


def test_a_second_run_changes_nothing(tmp_path: Path) -> None:
    tool_bin = tmp_path / "dap2mcp" / "bin"
    tool_bin.mkdir(parents=True)
    shutil.copy2(_installed(), tool_bin / "dlv")
    before = (tool_bin / "dlv").stat()
    done = _run({"XDG_DATA_HOME": str(tmp_path), "GOPROXY": "off"})  # it would fail, were anything fetched
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    after = (tool_bin / "dlv").stat()
    assert (after.st_mtime_ns, after.st_size, after.st_ino) == (before.st_mtime_ns, before.st_size, before.st_ino)
    assert os.listdir(tool_bin) == ["dlv"]


def test_a_module_proxy_that_cannot_be_reached_is_said_in_one_line(tmp_path: Path) -> None:
    done = _run({"XDG_DATA_HOME": str(tmp_path), "GOPROXY": "http://127.0.0.1:9", "GOFLAGS": "-modcacherw",
                 "GOMODCACHE": str(tmp_path / "modules")})
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("install: cannot fetch Delve 1.27.2 from the Go module proxy (http://127.0.0.1:9): ")
    assert "connection refused" in lines[0] and not (tmp_path / "dap2mcp").exists()


def test_a_go_too_old_to_build_it_leaves_delve_to_debian(tmp_path: Path) -> None:
    """Debian's Go 1.19 cannot build Delve 1.27.2: `--check` says no, and install.sh installs Debian's delve."""
    old_go = tmp_path / "go"
    old_go.write_text('#!/bin/sh\n[ "$1 $2" = "env GOVERSION" ] && echo go1.19.8\n')  # stands in for Debian's go
    old_go.chmod(0o755)
    done = _run({"PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}, "--check")
    assert done.returncode == 1 and done.stderr == ""
    done = _run({"PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}", "XDG_DATA_HOME": str(tmp_path)})
    assert done.returncode == 1 and "needs Go 1.25 or later to build; go here: go1.19.8" in done.stderr
    assert _run({}, "--check").returncode == 0  # this machine's Go can
