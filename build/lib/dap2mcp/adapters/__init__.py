"""Debug adapter profiles: how to start each adapter and talk it into debugging a target."""

from __future__ import annotations

import os

from ..errors import DebugError, ErrorCode
from .base import AdapterProfile, AdapterStart, Target
from .python import DEBUGPY

PROFILES: dict[str, AdapterProfile] = {p.name: p for p in (DEBUGPY,)}


def select(target: Target, adapter: str | None = None) -> AdapterProfile:
    """The adapter named by the user, else the one whose language the program is written in."""
    if adapter:
        try:
            return PROFILES[adapter]
        except KeyError:
            raise DebugError(
                ErrorCode.ADAPTER_NOT_FOUND,
                f"unknown adapter '{adapter}'; available: {', '.join(sorted(PROFILES))}",
            ) from None
    if target.mode == "attach" or target.module:
        return DEBUGPY
    ext = os.path.splitext(target.path or "")[1].lower()
    for profile in PROFILES.values():
        if ext in profile.extensions:
            return profile
    raise DebugError(
        ErrorCode.ADAPTER_NOT_FOUND,
        f"no debug adapter for '{target.path}' (extension '{ext or 'none'}'); "
        f"pass adapter= one of {', '.join(sorted(PROFILES))}",
    )


__all__ = ["PROFILES", "AdapterProfile", "AdapterStart", "Target", "select"]
