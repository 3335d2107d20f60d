"""An adapter's answers as an agent should read them: stack traces with readable names, complete where the
adapter gives them a page at a time, ending at the program's own `main`; exception details without the
adapter's notes. Applied to every answer on its way from the link, before anything else reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...dap import AdapterRefused, bodies
from ..models import Frame
from .inspect import Requester, to_frame

if TYPE_CHECKING:
    from ...adapters import AdapterProfile, Target


BLOCK = "block"
"""How V8 names (lower-cased) the scope of a block inside a frame (js-debug's `Block`, `Block: main`)."""


class Answers:
    def __init__(self, profile: AdapterProfile, target: Callable[[], Target], own: Callable[[Frame], bool],
                 adapter: Requester) -> None:
        """`target`: the session's target as it is now (a build names the program once it is ready);
        `adapter`: the link, for the pages of a stack that come after the first."""
        self._profile = profile
        self._target_now = target
        self._own = own
        self._adapter = adapter

    @property
    def _target(self) -> Target:
        return self._target_now()

    async def shape(self, command: str, arguments: dict[str, Any] | None, body: Any, timeout: float) -> None:
        """`body`, the answer to `command` (typed where it has a type: `bodies.RESPONSES`), changed in place."""
        if isinstance(body, bodies.StackTraceBody):
            if self._profile.stops.stack_page is not None:
                await self.page_stack(body, arguments or {}, self._profile.stops.stack_page, timeout)
            self.stack(body, arguments)
        elif isinstance(body, bodies.ScopesBody) and self._profile.evaluation.top_level_scopes:
            self.scopes(body)
        elif command == "exceptionInfo":
            self.exception_info(body)

    def scopes(self, body: bodies.ScopesBody) -> None:
        """A frame's scopes with its own variables listed: a scope the adapter marks expensive that holds a module's
        top level (`AdapterProfile.evaluation.top_level_scopes`) is cheap where the frame is that top level, its innermost
        scope but for blocks'. In a function of the module it stays named only, as the module's closure does."""
        for scope in body.scopes:
            name = scope.name.lower()
            if name in self._profile.evaluation.top_level_scopes:
                scope.expensive = False
            if not name.startswith(BLOCK):
                return

    def stack(self, body: bodies.StackTraceBody, arguments: dict[str, Any] | None) -> None:
        """A stackTrace answer as an agent should read it: function names readable, no estimated count,
        and nothing below the program's own `main` (a Rust program has fourteen runtime frames there,
        a C one three), which only shows up in the count."""
        profile = self._profile
        frames = body.stackFrames
        for frame in frames if profile.stops.symbol_suffix is not None else ():
            frame.name = profile.readable_symbol(frame.name)
        for frame in frames if profile.stops.frame_mark is not None else ():
            frame.name = profile.stops.frame_mark.sub("", frame.name)
        if profile.stops.guesses_total_frames:
            body.totalFrames = None
        main, total = self._target.main, body.totalFrames
        start, levels = (arguments or {}).get("startFrame", 0), (arguments or {}).get("levels", 0)
        whole = len(frames) < levels or (isinstance(total, int) and start + len(frames) >= total)
        bottom = self._outermost(main, frames, whole) if main else None
        if bottom is not None:  # the stack, as the agent sees it, ends there: nothing more to ask for
            body.totalFrames = start + bottom + 1
            body.stackFrames = frames[: bottom + 1]
        elif main and not whole and isinstance(total, int):
            body.totalFrames = None  # it counts frames below `main` that a deeper page would not show
        if whole and profile.stops.bottom_files and frames:
            kept = len(frames)
            while kept and (frames[kept - 1].path or "").startswith(profile.stops.bottom_files):
                kept -= 1
            body.stackFrames, body.totalFrames = frames[:kept or len(frames)], start + (kept or len(frames))

    async def page_stack(self, body: bodies.StackTraceBody, arguments: dict[str, Any], page: int,
                         timeout: float) -> None:
        """A stackTrace answer from an adapter that gives and counts at most `page` frames, completed to the
        levels asked for (0: all) by asking for the frames after it; its `totalFrames` kept only where it is
        the stack's real depth. Without this, a crash 501 frames deep reads as a complete stack of 100."""
        frames = body.stackFrames
        total, start, levels = body.totalFrames, arguments.get("startFrame", 0), arguments.get("levels", 0)
        if not isinstance(total, int) or total < page:
            return
        body.totalFrames = None  # at least `page`: the real depth is known once a page comes back short
        while frames and (not levels or len(frames) < levels):
            asked = page if not levels else min(page, levels - len(frames))
            more = await self._frames_from(arguments.get("threadId"), start + len(frames), asked, timeout)
            frames.extend(more)
            if len(more) < asked:  # the bottom of the stack
                body.totalFrames = start + len(frames)
                return
        if frames and start + len(frames) >= page and not await self._frames_from(
                arguments.get("threadId"), start + len(frames), 1, timeout):
            body.totalFrames = start + len(frames)  # exactly as deep as asked for

    async def _frames_from(self, thread: int | None, start: int, levels: int, timeout: float) -> list[bodies.StackFrame]:
        """Frames `start` on; none past the bottom (gdb: "Not enough frames in stack")."""
        try:
            body = await self._adapter.request("stackTrace", {"threadId": thread, "startFrame": start,
                                                              "levels": levels}, timeout=timeout)
        except AdapterRefused:
            return []
        return body.stackFrames

    def exception_info(self, body: dict[str, Any]) -> None:
        """An exceptionInfo answer with the exception's type as the program names it: debugpy appends a note
        to it (where the program is paused) and marks a frame of the trace; the note is kept, in words, in
        the description."""
        profile = self._profile
        details = body.get("details") if isinstance(body.get("details"), dict) else {}
        paused_in = None
        if profile.stops.exception_note is not None:
            for holder, key in ((body, "exceptionId"), (details, "typeName"), (details, "fullTypeName")):
                if isinstance(holder.get(key), str) and (note := profile.stops.exception_note.search(holder[key])):
                    holder[key], paused_in = holder[key][: note.start()], note.group("frame")
        trace = details.get("stackTrace")
        above = False  # whether the trace has frames above the one paused in (it starts at the innermost)
        if profile.stops.frame_mark is not None and isinstance(trace, str):
            above = not profile.stops.frame_mark.search(trace.split("\n", 1)[0])
            details["stackTrace"] = profile.stops.frame_mark.sub("", trace)
        said = body.get("description") or details.get("message")
        if paused_in and above:
            body["description"] = f"{said} " * bool(said) + f"(the program is paused in `{paused_in}`; the frames " \
                "above it, where the exception came from, have ended)"
        elif profile.stops.uncaught_unwound and body.get("breakMode") == "unhandled":
            body["description"] = f"{said} " * bool(said) + "(uncaught: the stack has unwound, every frame it left " \
                "has ended, its `finally` blocks and context managers' exits have run; the frames are the " \
                "traceback's, their variables as the exception left them)"

    def _outermost(self, main: str, frames: list[bodies.StackFrame], whole: bool) -> int | None:
        """Where the program's own `main` is in a page of the stack. A recursive one calls itself: where
        the page reaches the bottom, it is the last `main`; elsewhere, the one the runtime called, told by
        the frame below it (the C library's, Rust's std), which is neither `main` nor the program's own."""
        for i in range(len(frames) - 1, -1, -1):
            if frames[i].name != main:
                continue
            if whole:
                return i
            below = frames[i + 1] if i + 1 < len(frames) else None
            if below is not None and below.name != main and not self._own(to_frame(below)):
                return i
        return None
