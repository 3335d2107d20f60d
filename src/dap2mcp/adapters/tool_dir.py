"""dap2mcp's own tool directory: where the adapters it installs itself live (Delve, built by `go install`).

It is searched before PATH, so the Delve installed for this machine's Go wins over an older one that a
distribution package left on PATH. `$XDG_DATA_HOME/dap2mcp`, else `~/.local/share/dap2mcp`; executables in
its `bin/` (the GOBIN of `scripts/install.sh`).
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")) / "dap2mcp"


def bin_dir() -> Path:
    return data_dir() / "bin"


def installed(command: str) -> str | None:
    """`command` from the tool directory, where it is there and executable."""
    path = bin_dir() / command
    return str(path) if os.access(path, os.X_OK) and path.is_file() else None
