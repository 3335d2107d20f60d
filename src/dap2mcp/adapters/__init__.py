"""Debug adapter profiles: how to start each adapter and talk it into debugging a target."""

from __future__ import annotations

import os

from ..errors import DebugError, ErrorCode
from .base import AdapterProfile, AdapterStart, Target, Tool
from .go import DELVE
from .native import GDB, LLDB
from .python import DEBUGPY

PROFILES: dict[str, AdapterProfile] = {p.name: p for p in (DEBUGPY, LLDB, GDB, DELVE)}
"""By the names `debug`'s `adapter` argument takes. Where two profiles share an extension, the first wins."""

GO_BUILD_INFO = b"\xff Go buildinf:"


def select(target: Target, adapter: str | None = None) -> AdapterProfile:
    """The adapter named by the user, else the one whose language the program is written in."""
    if adapter:
        try:
            return PROFILES[adapter]
        except KeyError:
            raise DebugError(
                ErrorCode.ADAPTER_NOT_FOUND,
                f"unknown adapter '{adapter}'; available: {', '.join(PROFILES)}",
            ) from None
    if target.module or (target.mode == "connect" and not target.path):
        return DEBUGPY
    if target.mode == "attach":
        return _for_process(target.process_id or 0)
    path = target.absolute(target.path or "")
    if os.path.isdir(path) and any(name.endswith(".go") for name in os.listdir(path)):
        return DELVE
    ext = os.path.splitext(path)[1].lower()
    for profile in PROFILES.values():
        if ext in profile.extensions:
            return profile
    if target.mode == "binary" and ext == "" and os.path.isfile(path):
        return DELVE if _is_go(path) else LLDB
    raise DebugError(
        ErrorCode.ADAPTER_NOT_FOUND,
        f"no debug adapter for '{target.path}' (extension '{ext or 'none'}'); "
        f"pass adapter= one of {', '.join(PROFILES)}",
    )


def _for_process(pid: int) -> AdapterProfile:
    """Python interpreters go to debugpy, Go programs to Delve, anything else native to lldb."""
    try:
        exe = os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return DEBUGPY
    if os.path.basename(exe).startswith(("python", "pypy")):
        return DEBUGPY
    return DELVE if _is_go(exe) else LLDB


def _is_go(path: str) -> bool:
    """Go linkers write a build-info header into every executable."""
    try:
        with open(path, "rb") as handle:
            return GO_BUILD_INFO in handle.read(64 << 20)
    except OSError:
        return False


__all__ = ["PROFILES", "AdapterProfile", "AdapterStart", "Target", "Tool", "select"]
