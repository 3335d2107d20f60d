"""dap2mcp's own tool directory: where `dap2mcp install` puts the adapters it fetches itself (js-debug, the gdb
adapter, Delve, the Java host), so that a checkout and a `pip install` keep them in one place.

`$XDG_DATA_HOME/dap2mcp`, else `~/.local/share/dap2mcp`; executables in its `bin/`. It is searched first, then a
checkout's `vendor/` (where install.sh put js-debug and the Java host before), then PATH: the Delve installed for this
machine's Go wins over an older one that a distribution package left on PATH.
"""

from __future__ import annotations

import os
from pathlib import Path

CHECKOUT_VENDOR = Path(__file__).resolve().parents[3] / "vendor"
"""A checkout's `vendor/` (nothing there in an installed wheel)."""


def data_dir() -> Path:
    """A relative `XDG_DATA_HOME` is ignored, as the XDG specification says: it would move with the working folder."""
    given = os.path.expanduser(os.environ.get("XDG_DATA_HOME") or "")
    return Path(given if os.path.isabs(given) else os.path.expanduser("~/.local/share")) / "dap2mcp"


def bin_dir() -> Path:
    return data_dir() / "bin"


def installed(command: str) -> str | None:
    """`command` from the tool directory, where it is there and executable."""
    path = bin_dir() / command
    return str(path) if os.access(path, os.X_OK) and path.is_file() else None


def places(*parts: str) -> tuple[str, ...]:
    """Where a fetched piece may lie, in the order it is looked for: the data directory, then a checkout's
    `vendor/`."""
    return str(data_dir().joinpath(*parts)), str(CHECKOUT_VENDOR.joinpath(*parts))
