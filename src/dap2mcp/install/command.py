"""`dap2mcp install [ADAPTER…] | --all`: what each named adapter needs, fetched where a registry package provides it
(`pieces`), and the system's own command for the rest, said once at the end."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from pathlib import Path

from ..adapters import PROFILES
from ..adapters.base import AdapterProfile, Tool
from ..adapters.system_packages import install_command
from .pieces import PIECES, InstallFailed, Piece

ALIASES = {"python": "debugpy", "c": "lldb", "c++": "lldb", "cpp": "lldb", "rust": "lldb", "go": "delve",
           "javascript": "node", "js": "node", "typescript": "node", "ts": "node"}
"""Languages, by the adapter that debugs them (gdb, the other adapter for C and C++, is named as itself)."""


def names() -> list[str]:
    return [*PROFILES, *ALIASES]


def profiles_named(wanted: Iterable[str]) -> list[AdapterProfile]:
    """The profiles named (by adapter or language), in the order given, each once; ValueError for an unknown name."""
    chosen: dict[str, AdapterProfile] = {}
    for name in wanted:
        profile = PROFILES.get(ALIASES.get(name.lower(), name.lower()))
        if profile is None:
            raise ValueError(f"unknown adapter '{name}'; these can be installed: {', '.join(names())}")
        chosen.setdefault(profile.name, profile)
    return list(chosen.values())


def run(wanted: list[str], upgrade: bool = False) -> int:
    """Install what the named adapters need; 0 when all of it is there afterwards, else 1 with what is left to do."""
    try:
        profiles = profiles_named(wanted)
    except ValueError as exc:
        _say(str(exc))
        return 2
    pieces: dict[str, tuple[Piece, Tool]] = {}
    system: dict[str, list[str]] = {}  # package → what needs it
    unplaced: list[str] = []
    for profile in profiles:
        for tool in profile.every_tool:
            if tool.fetch:
                pieces.setdefault(tool.fetch, (PIECES[tool.fetch], tool))
            elif tool.find() is None:
                _missing(tool, profile.name, system, unplaced)
    failed: list[str] = []
    for piece, tool in pieces.values():
        if piece.present() and not upgrade:
            _say(f"{piece.name}: {piece.what} is there ({piece.place()})")
            continue
        elsewhere = _serving(tool, piece)
        lacking = [need for need in piece.needs if need.find() is None]
        if lacking:
            _say(f"{piece.name}: {piece.what} not fetched, for want of {', '.join(t.commands[-1] for t in lacking)}")
            if elsewhere:
                _say(f"{piece.name}: the one at {elsewhere} serves meanwhile")
                continue
            for need in lacking:
                _missing(need, f"fetching {piece.what}", system, unplaced)
            failed.append(piece.name)
            continue
        started = time.monotonic()
        try:
            piece.fetch(_say)
        except (InstallFailed, OSError) as exc:
            _say(exc.message if isinstance(exc, InstallFailed) else f"cannot install {piece.what}: {exc}")
            if elsewhere:
                _say(f"{piece.name}: the one at {elsewhere} serves meanwhile")
            else:
                failed.append(piece.name)
            continue
        _say(f"{piece.name}: {piece.what} installed in {time.monotonic() - started:.1f} s ({piece.place()})")
    if system:
        _say("the system must provide: " + "; ".join(f"{p} (for {', '.join(dict.fromkeys(w))})"
                                                      for p, w in system.items()))
        _say(f"install it with: {install_command(list(system))}")
    for line in unplaced:
        _say(line)
    return 1 if system or unplaced or failed else 0


def _serving(tool: Tool, piece: Piece) -> str | None:
    """Where a tool that can serve is found already, outside the piece's own place (a distribution's Delve that
    debugs this machine's Go), for a piece that cannot be fetched: what `doctor` would call installed is not a
    failure here either. What is in the piece's place did not pass its checks, so it serves nothing."""
    found = tool.find()
    if not found or Path(found).is_relative_to(piece.place()) or (tool.unfit and tool.unfit(found)):
        return None
    return found


def _missing(tool: Tool, needed_by: str, system: dict[str, list[str]], unplaced: list[str]) -> None:
    if tool.package:
        for package in tool.package.split():
            system.setdefault(package, []).append(needed_by)
    else:
        unplaced.append(f"{needed_by} needs {tool.label or tool.commands[0]}: {tool.install}")


def _say(text: str) -> None:
    print(f"install: {text}", file=sys.stderr, flush=True)
