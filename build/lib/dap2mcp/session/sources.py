"""The source files a session may serve: those the debug adapter itself has named.

The source resource must not become a general file reader (the agent has its own tools for
that, and a debugger's server may run on another machine). So a file is served only after the
adapter has referenced it, in a stack frame, a loaded source, a module or a breakpoint it
verified; and every path is compared after resolving `..`, symlinks and, where the file system
ignores it, case, so neither a `../` trick nor a symlink planted beside a referenced file gets out.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import DebugError, ErrorCode

MAX_BYTES = 4 * 1024 * 1024


def canonical(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


class SourceAllowList:
    def __init__(self) -> None:
        self._files: set[str] = set()

    def __contains__(self, path: str) -> bool:
        return canonical(path) in self._files

    def add(self, path: Any) -> None:
        if isinstance(path, str) and os.path.isabs(path) and "\0" not in path:
            self._files.add(canonical(path))

    def _add_source(self, source: Any) -> None:
        if isinstance(source, dict):
            self.add(source.get("path"))

    def note_response(self, command: str, arguments: dict[str, Any] | None, body: dict[str, Any]) -> None:
        """Take the files a response names (called for every response the session receives)."""
        if command == "stackTrace":
            for frame in body.get("stackFrames") or []:
                self._add_source(frame.get("source"))
        elif command == "loadedSources":
            for source in body.get("sources") or []:
                self._add_source(source)
        elif command == "modules":
            for module in body.get("modules") or []:
                self._note_module(module)
        elif command == "setBreakpoints":
            verified = [bp for bp in body.get("breakpoints") or [] if bp.get("verified")]
            for bp in verified:
                self._add_source(bp.get("source"))
            if verified and arguments:
                self._add_source(arguments.get("source"))

    def note_event(self, event: str, body: dict[str, Any]) -> None:
        if event == "loadedSource" and body.get("reason") != "removed":
            self._add_source(body.get("source"))
        elif event == "module" and body.get("reason") != "removed":
            self._note_module(body.get("module") or {})
        elif event == "breakpoint" and (body.get("breakpoint") or {}).get("verified"):
            self._add_source(body["breakpoint"].get("source"))

    def _note_module(self, module: dict[str, Any]) -> None:
        self.add(module.get("path"))
        self.add(module.get("symbolFilePath"))

    def read(self, requested: str) -> str:
        """The text of a referenced file; anything else is refused with the reason."""
        if requested not in self:
            raise DebugError(ErrorCode.INVALID_ARGUMENT,
                             f"File path '{requested}' is not referenced by the debug adapter")
        path = Path(canonical(requested))
        try:
            size = path.stat().st_size
            if not path.is_file():
                raise FileNotFoundError(requested)
        except OSError:
            raise DebugError(ErrorCode.FILE_NOT_FOUND, f"Source file '{requested}' referenced by the debug "
                             "adapter but not found on disk") from None
        if size > MAX_BYTES:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"Source file '{requested}' is {size} bytes; the source "
                             f"resource serves files up to {MAX_BYTES} bytes")
        return path.read_bytes().decode("utf-8", errors="replace")
