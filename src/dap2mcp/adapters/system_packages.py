"""What only the system can provide (a debugger, a compiler, a runtime), as the command that installs it here.

dap2mcp fetches what a registry package provides (`dap2mcp install`); for the rest it names the package manager's
command, so `doctor`, `debug`'s ADAPTER_NOT_FOUND and `dap2mcp install` say the same thing. Packages are named as
Debian names them; other package managers' names are listed where they differ.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence

OTHER_NAMES: dict[str, dict[str, str]] = {
    "dnf": {"lldb-19": "lldb", "g++": "gcc-c++", "golang-go": "golang", "nodejs": "nodejs", "npm": "nodejs-npm",
            "openjdk-17-jdk-headless": "java-17-openjdk-devel", "delve": "delve", "python3": "python3",
            "ruby": "ruby rubygem-debug"},
    "brew": {"lldb-19": "llvm", "g++": "gcc", "golang-go": "go", "nodejs": "node", "npm": "node",
             "openjdk-17-jdk-headless": "openjdk@17", "rustc": "rust", "cargo": "rust", "python3": "python@3.11"},
}
"""By package manager, the names that differ from Debian's."""

MANAGERS = (("apt-get", "apt-get install -y"), ("dnf", "dnf install -y"), ("brew", "brew install"))
"""Package managers in the order they are looked for, with the command that installs packages."""


def install_command(packages: Sequence[str]) -> str:
    """The command that installs `packages` (Debian's names) on this machine: `sudo` first where it is needed and
    there; where no known package manager is, the names, for the user's own."""
    for manager, command in MANAGERS:
        if shutil.which(manager):
            names = OTHER_NAMES.get(manager, {})
            wanted = " ".join(dict.fromkeys(" ".join(names.get(p, p) for p in packages).split()))
            root = manager != "brew" and hasattr(os, "geteuid") and os.geteuid() != 0 and shutil.which("sudo")
            return f"{'sudo ' if root else ''}{command} {wanted}"
    return f"your system's packages {' '.join(packages)} (as Debian names them)"
