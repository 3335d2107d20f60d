"""The source files a session may serve: those the debug adapter itself has named.

The source resource must not become a general file reader (the agent has its own tools for
that, and a debugger's server may run on another machine). So a file is served only after the
adapter has referenced it, in a stack frame, a loaded source, a module or a breakpoint it
verified; and every path is compared after resolving `..`, symlinks and, where the file system
ignores it, case, so neither a `../` trick nor a symlink planted beside a referenced file gets out.

A verified breakpoint counts only in a source file of the adapter's language: debugpy verifies a
breakpoint in any file that exists, `/etc/passwd` included, and a breakpoint is the agent's own
request, not the adapter's word that the program uses the file.
"""

from __future__ import annotations

import os
import stat
from typing import Any

from ..dap import bodies
from ..errors import DebugError, ErrorCode

MAX_BYTES = 4 * 1024 * 1024
TOOLING = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
"""dap2mcp's own files, which a program may load (Node's console preload): not the program's."""


def canonical(path: str) -> str | None:
    if "\0" in path:
        return None
    return os.path.normcase(os.path.realpath(path))


class SourceAllowList:
    def __init__(self, breakpoint_suffixes: tuple[str, ...] = ()) -> None:
        self._files: set[str] = set()
        self._added: set[str] = set()  # as given: every stop names the same files again
        self._breakpoint_suffixes = tuple(s.lower() for s in breakpoint_suffixes)
        self.first_loaded: str | None = None
        """The first file the adapter said the program loaded: a worker thread's script, which names it."""

    def __contains__(self, path: str) -> bool:
        return self.resolve(path) is not None

    def resolve(self, path: str) -> str | None:
        """The canonical path of `path` if it is referenced, else None."""
        found = canonical(path)
        return found if found is not None and found in self._files else None

    def add(self, path: Any) -> None:
        if not isinstance(path, str) or path in self._added:
            return
        if os.path.isabs(path) and (found := canonical(path)) is not None:
            self._files.add(found)
            self._added.add(path)

    def _add_source(self, source: object) -> None:
        """A source as a body kept as the adapter's dict names it (`loadedSources`, `loadedSource`)."""
        if isinstance(source, dict):
            self.add(source.get("path"))

    def _add_breakpoint_path(self, path: object) -> None:
        if isinstance(path, str) and path.lower().endswith(self._breakpoint_suffixes):
            self.add(path)

    def note_response(self, command: str, arguments: dict[str, Any] | None, body: Any) -> None:
        """Take the files a response names (called for every response the session receives, typed where its
        command's answer has a type: `bodies.RESPONSES`)."""
        if isinstance(body, bodies.StackTraceBody):
            for frame in body.stackFrames:
                self.add(frame.path)
        elif command == "loadedSources":
            for source in body.get("sources") or []:
                self._add_source(source)
        elif command == "modules":
            for module in body.get("modules") or []:
                self._note_module(module)
        elif command == "setBreakpoints" and isinstance(body, bodies.BreakpointsBody):
            verified = [bp for bp in body.breakpoints if bp.verified]
            for bp in verified:
                self.note_breakpoint(bp)
            if verified and arguments:
                self._add_breakpoint_path((arguments.get("source") or {}).get("path"))

    def note_breakpoint(self, bp: bodies.Breakpoint) -> None:
        """A breakpoint the adapter answered with, or told of in a `breakpoint` event: its file, if verified."""
        if bp.verified and bp.source is not None:
            self._add_breakpoint_path(bp.source.path)

    def note_event(self, event: str, body: dict[str, Any]) -> None:
        if event == "loadedSource" and body.get("reason") != "removed":
            self._add_source(body.get("source"))
            path = (body.get("source") or {}).get("path")
            if self.first_loaded is None and isinstance(path, str) and os.path.isabs(path) \
                    and not path.startswith(TOOLING):
                self.first_loaded = path
        elif event == "module" and body.get("reason") != "removed":
            self._note_module(body.get("module") or {})

    def _note_module(self, module: dict[str, Any]) -> None:
        self.add(module.get("path"))
        self.add(module.get("symbolFilePath"))

    def read(self, *spellings: str) -> str:
        """The text of a referenced file, by the first of its `spellings` that the adapter referenced;
        anything else is refused with the reason (naming the last spelling).

        The path is resolved once and opened without following a final symlink and without
        blocking, so a file swapped for a symlink or a FIFO after the check cannot get out or hang."""
        requested, path = spellings[-1], None
        for spelling in spellings:
            if (path := self.resolve(spelling)) is not None:
                requested = spelling
                break
        if path is None:
            raise DebugError(ErrorCode.INVALID_ARGUMENT,
                             f"File path '{requested}' is not referenced by the debug adapter")
        gone = DebugError(ErrorCode.FILE_NOT_FOUND,
                          f"Source file '{requested}' referenced by the debug adapter but not found on disk")
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            raise gone from None
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise gone
            if info.st_size > MAX_BYTES:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"Source file '{requested}' is {info.st_size} bytes; "
                                 f"the source resource serves files up to {MAX_BYTES} bytes")
            return handle.read(MAX_BYTES + 1)[:MAX_BYTES].decode("utf-8", errors="replace")
