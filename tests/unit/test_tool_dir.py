"""Where dap2mcp looks for the adapters' pieces: its data directory first, then a checkout's `vendor/`, then PATH."""

from __future__ import annotations

from pathlib import Path

import pytest

from dap2mcp.adapters import tool_dir
from dap2mcp.adapters.base import Tool


def test_the_data_directory_then_vendor(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(tool_dir, "CHECKOUT_VENDOR", tmp_path / "vendor")
    script = Tool("adapter", tool_dir.places("js-debug", "vsDebugServer.js"), script=True)
    assert script.find() is None
    vendored = tmp_path / "vendor" / "js-debug" / "vsDebugServer.js"
    vendored.parent.mkdir(parents=True)
    vendored.write_text("")
    assert script.find() == str(vendored)  # an older install's copy in the checkout is found
    ours = tmp_path / "data" / "dap2mcp" / "js-debug" / "vsDebugServer.js"
    ours.parent.mkdir(parents=True)
    ours.write_text("")
    assert script.find() == str(ours)  # and the data directory's before it


def test_the_tool_directory_before_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    on_path = tmp_path / "path" / "dlv"
    on_path.parent.mkdir()
    on_path.write_text("#!/bin/sh\n")
    on_path.chmod(0o755)
    monkeypatch.setenv("PATH", str(on_path.parent))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert Tool("adapter", ("dlv",)).find() == str(on_path)
    ours = tmp_path / "data" / "dap2mcp" / "bin" / "dlv"
    ours.parent.mkdir(parents=True)
    ours.write_text("#!/bin/sh\n")
    ours.chmod(0o755)
    assert Tool("adapter", ("dlv",)).find() == str(ours)


def test_a_relative_xdg_data_home_is_ignored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")
    assert tool_dir.data_dir() == tmp_path / ".local" / "share" / "dap2mcp"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "abs"))
    assert tool_dir.data_dir() == tmp_path / "abs" / "dap2mcp"
