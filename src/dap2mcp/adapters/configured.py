"""The user's own adapters, named in `$XDG_CONFIG_HOME/dap2mcp/adapters.toml` (`~/.config` without it): each
entry's name becomes a value of `debug`'s `adapter`, and its file extensions choose it.

    [adapters.rdbg]
    command = ["rdbg", "--open=vscode"]      # or: address = "127.0.0.1:12345"
    extensions = [".rb"]
    launch = { script = "${path}", args = "${args}" }   # and/or: attach = { ... }

An entry may give both `launch` and `attach`: modes source and binary launch, attach and connect attach. The file
is read at each use, so an edit takes effect at the next `debug`.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import DebugError, ErrorCode
from .generic import AdapterSpec, GenericProfile


def config_path() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "dap2mcp" / "adapters.toml"


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    command: list[Annotated[str, Field(min_length=1)]] | None = Field(default=None, min_length=1)
    address: str | None = None
    extensions: list[str] = []
    launch: dict[str, Any] | None = None
    attach: dict[str, Any] | None = None


@dataclass(frozen=True)
class Configured:
    """An entry of the file: the profile for each request it gives."""

    name: str
    extensions: tuple[str, ...]
    launch: GenericProfile | None
    attach: GenericProfile | None

    def for_mode(self, mode: str) -> GenericProfile:
        attaching = mode in ("attach", "connect")
        profile = self.attach if attaching else self.launch
        if profile is None:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"adapter '{self.name}' ({config_path()}) has no "
                             f"`{'attach' if attaching else 'launch'}` arguments for mode '{mode}'")
        return profile

    @property
    def any(self) -> GenericProfile:
        profile = self.launch or self.attach
        assert profile is not None
        return profile


def configured() -> dict[str, Configured]:
    """The file's adapters by name (none without the file); INVALID_ARGUMENT naming the file and the entry where
    it cannot be read."""
    path = config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot read {path}: {exc.strerror}") from None
    try:
        entries = tomllib.loads(text).get("adapters", {})
    except tomllib.TOMLDecodeError as exc:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{path} is not TOML: {exc}") from None
    if not isinstance(entries, dict):
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{path}: `adapters` must be a table of named adapters")
    found: dict[str, Configured] = {}
    for name, fields in entries.items():
        try:
            entry = _Entry.model_validate(fields)
            reach = {"command": entry.command, "address": entry.address}
            made = {request: GenericProfile.given(AdapterSpec(**reach, **{request: arguments}), name,
                                                  tuple(e.lower() for e in entry.extensions))
                    for request, arguments in (("launch", entry.launch), ("attach", entry.attach))
                    if arguments is not None}
            if not made:
                raise ValueError("give `launch` or `attach` arguments (or both)")
        except (ValidationError, ValueError) as exc:
            reason = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'entry'}: {e['msg']}" for e in exc.errors()) \
                if isinstance(exc, ValidationError) else str(exc)
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{path}: adapter '{name}': {reason}") from None
        found[name] = Configured(name, tuple(e.lower() for e in entry.extensions), made.get("launch"),
                                 made.get("attach"))
    return found
