"""What only the system provides, said as this system's command: the package manager found, its own names for the
packages, `sudo` where the user is not root and sudo is there."""

from __future__ import annotations

import pytest

from dap2mcp.adapters import system_packages
from dap2mcp.adapters.base import Tool


def _machine(monkeypatch: pytest.MonkeyPatch, commands: set[str], euid: int) -> None:
    monkeypatch.setattr(system_packages.shutil, "which", lambda name: f"/usr/bin/{name}" if name in commands else None)
    monkeypatch.setattr(system_packages.os, "geteuid", lambda: euid)


def test_debian_as_root_and_as_a_user(monkeypatch: pytest.MonkeyPatch) -> None:
    _machine(monkeypatch, {"apt-get", "sudo"}, 0)
    assert system_packages.install_command(["gdb", "lldb-19"]) == "apt-get install -y gdb lldb-19"
    _machine(monkeypatch, {"apt-get", "sudo"}, 1000)
    assert system_packages.install_command(["gdb"]) == "sudo apt-get install -y gdb"
    _machine(monkeypatch, {"apt-get"}, 1000)  # no sudo: the command as root would run it
    assert system_packages.install_command(["gdb"]) == "apt-get install -y gdb"


def test_other_package_managers_by_their_own_names(monkeypatch: pytest.MonkeyPatch) -> None:
    _machine(monkeypatch, {"dnf", "sudo"}, 1000)
    assert system_packages.install_command(["g++", "openjdk-17-jdk-headless"]) == \
        "sudo dnf install -y gcc-c++ java-17-openjdk-devel"
    _machine(monkeypatch, {"brew", "sudo"}, 501)  # brew refuses sudo; rustc and cargo are one formula
    assert system_packages.install_command(["rustc", "cargo", "lldb-19"]) == "brew install rust llvm"
    _machine(monkeypatch, set(), 1000)
    assert system_packages.install_command(["gdb"]) == "your system's packages gdb (as Debian names them)"


def test_a_tool_says_how_it_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    _machine(monkeypatch, {"apt-get"}, 0)
    assert Tool("adapter", ("dlv",), fetch="go", note="with Go 1.25").install == "dap2mcp install go  (with Go 1.25)"
    assert Tool("compiler", ("rustc",), package="rustc", note="or rustup").install == \
        "apt-get install -y rustc  (or rustup)"
    assert Tool("adapter", ("mine",), note="install mine").install == "install mine"
