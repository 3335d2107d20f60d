"""Breakpoints as the user set them, with stable ids, kept in step with the adapter.

DAP replaces all breakpoints of a file (or all function breakpoints) at once, and adapters
renumber them; so the registry owns the ids an agent sees and re-sends whole lists.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from ..errors import DebugError, ErrorCode
from .models import BreakpointView

Request = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]


@dataclass
class Breakpoint:
    id: int
    file: str | None = None
    line: int | None = None
    function: str | None = None
    temporary: bool = False
    verified: bool = False
    message: str | None = None
    adapter_id: int | None = None
    actual_line: int | None = None

    def view(self) -> BreakpointView:
        return BreakpointView(
            id=self.id,
            verified=self.verified,
            file=self.file,
            line=self.actual_line or self.line,
            function=self.function,
            message=self.message,
        )


def resolve_source_line(file: str, line: int, cwd: str | None) -> str:
    """An absolute, existing file in which `line` exists; else a clear error."""
    path = os.path.realpath(os.path.join(cwd or os.getcwd(), os.path.expanduser(file)))
    if not os.path.isfile(path):
        raise DebugError(ErrorCode.FILE_NOT_FOUND, f"source file not found: {file}")
    if line < 1:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"line must be 1 or more, got {line}")
    with open(path, "rb") as handle:
        count = sum(1 for _ in handle)
    if line > count:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"line {line} is past the end of {file} ({count} lines)")
    return path


class BreakpointRegistry:
    def __init__(self, carried: Iterable[Breakpoint] = ()) -> None:
        self._items: dict[int, Breakpoint] = {}
        for bp in carried:
            if not bp.temporary:
                self._items[bp.id] = replace(bp, verified=False, message=None, adapter_id=None, actual_line=None)
        self._ids = itertools.count(max(self._items, default=0) + 1)
        self._temporary_ids = itertools.count(-1, -1)  # hidden ones do not use up the ids agents see

    def all(self) -> list[Breakpoint]:
        return list(self._items.values())

    def views(self) -> list[BreakpointView]:
        return [bp.view() for bp in self._items.values() if not bp.temporary]

    def new(self, *, file: str | None = None, line: int | None = None, function: str | None = None,
            temporary: bool = False) -> Breakpoint:
        bp = Breakpoint(id=next(self._temporary_ids if temporary else self._ids), file=file, line=line,
                        function=function, temporary=temporary)
        self._items[bp.id] = bp
        return bp

    def discard(self, bp: Breakpoint) -> bool:
        """Forget one breakpoint, hidden or not; False if it was already gone."""
        return self._items.pop(bp.id, None) is not None

    def take(self, ids: Iterable[int]) -> list[Breakpoint]:
        """Remove breakpoints the agent named; hidden (temporary) ones are not the agent's to name."""
        ids = list(ids)
        missing = [i for i in ids if i not in self._items or self._items[i].temporary]
        if missing:
            raise DebugError(ErrorCode.BREAKPOINT_NOT_FOUND, f"no breakpoint with id {', '.join(map(str, missing))}")
        return [self._items.pop(i) for i in ids]

    def take_file(self, file: str, cwd: str | None) -> list[Breakpoint]:
        path = os.path.realpath(os.path.join(cwd or os.getcwd(), file))
        return self.take([bp.id for bp in self._items.values() if bp.file == path and not bp.temporary])

    def take_all(self) -> list[Breakpoint]:
        return self.take([bp.id for bp in self._items.values() if not bp.temporary])

    # -- talking to the adapter --------------------------------------------------------------

    async def sync_file(self, request: Request, path: str) -> None:
        bps = [bp for bp in self._items.values() if bp.file == path]
        body = await request(
            "setBreakpoints",
            {"source": {"path": path}, "breakpoints": [{"line": bp.line} for bp in bps]},
        )
        self._apply(bps, body.get("breakpoints") or [])

    async def sync_functions(self, request: Request) -> None:
        bps = [bp for bp in self._items.values() if bp.function]
        body = await request("setFunctionBreakpoints", {"breakpoints": [{"name": bp.function} for bp in bps]})
        self._apply(bps, body.get("breakpoints") or [])

    async def sync(self, request: Request, touched: Iterable[Breakpoint]) -> None:
        """Re-send every list a change touched (removed breakpoints need their file re-sent too)."""
        files = {bp.file for bp in touched if bp.file}
        for path in sorted(files):
            await self.sync_file(request, path)
        if any(bp.function for bp in touched):
            await self.sync_functions(request)

    async def sync_everything(self, request: Request) -> None:
        await self.sync(request, self._items.values())

    def _apply(self, bps: list[Breakpoint], answers: list[dict[str, Any]]) -> None:
        for bp, answer in zip(bps, answers, strict=False):
            bp.verified = bool(answer.get("verified"))
            bp.message = answer.get("message")
            bp.adapter_id = answer.get("id")
            bp.actual_line = answer.get("line") or bp.actual_line

    def on_event(self, body: dict[str, Any]) -> None:
        """A `breakpoint` event: the adapter verified, moved or dropped one of ours."""
        answer = body.get("breakpoint") or {}
        if answer.get("id") is None:
            return
        for bp in self._items.values():
            if bp.adapter_id == answer["id"]:
                bp.verified = bool(answer.get("verified", bp.verified))
                bp.message = answer.get("message", bp.message)
                bp.actual_line = answer.get("line") or bp.actual_line

    def hit(self, adapter_ids: Iterable[int]) -> list[Breakpoint]:
        wanted = set(adapter_ids)
        return [bp for bp in self._items.values() if bp.adapter_id in wanted]
