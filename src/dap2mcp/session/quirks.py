"""Where an adapter's behaviour differs from what an agent should see, and fixing it needs session state.

The differences themselves are data on the profile (`stray_step_stops`, `entry`); this module holds
the little state that acting on them takes, so the session's state machine stays adapter-neutral.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from ..errors import DebugError, ErrorCode
from .inspect import to_frame
from .specs import BreakpointSpec

if TYPE_CHECKING:
    from collections.abc import Callable

    from .breakpoints import Breakpoint
    from .models import StopInfo
    from .session import DebugSession

log = logging.getLogger(__name__)


class Quirks:
    def __init__(self, session: DebugSession) -> None:
        self._session = session
        self._entry: Breakpoint | None = None
        self._last_move = ""
        self.pausing = False
        """A `pause` was requested and its stop has not come yet."""

    def moved(self, command: str) -> None:
        self._last_move = command

    def stepping(self) -> bool:
        """The program last moved by a step (not yet ended by a stop, when the session says it runs)."""
        return self._last_move in ("next", "stepIn", "stepOut")

    def stack(self, body: dict[str, Any], arguments: dict[str, Any] | None) -> None:
        """A stackTrace answer as an agent should read it: function names readable, no estimated count,
        and nothing below the program's own `main` (a Rust program has fourteen runtime frames there,
        a C one three), which only shows up in the count."""
        profile = self._session.profile
        frames = body.get("stackFrames") or []
        for frame in frames if profile.symbol_suffix is not None else ():
            frame["name"] = profile.readable_symbol(str(frame.get("name", "")))
        for frame in frames if profile.frame_mark is not None else ():
            frame["name"] = profile.frame_mark.sub("", str(frame.get("name", "")))
        if profile.guesses_total_frames:
            body.pop("totalFrames", None)
        main, total = self._session.target.main, body.get("totalFrames")
        start, levels = (arguments or {}).get("startFrame", 0), (arguments or {}).get("levels", 0)
        whole = len(frames) < levels or (isinstance(total, int) and start + len(frames) >= total)
        bottom = self._outermost(main, frames, whole) if main else None
        if bottom is not None:  # the stack, as the agent sees it, ends there: nothing more to ask for
            body["totalFrames"] = start + bottom + 1
            body["stackFrames"] = frames[: bottom + 1]
        elif main and not whole and isinstance(total, int):
            body.pop("totalFrames")  # it counts frames below `main` that a deeper page would not show

    async def page_stack(self, body: dict[str, Any], arguments: dict[str, Any], page: int, timeout: float) -> None:
        """A stackTrace answer from an adapter that gives and counts at most `page` frames, completed to the
        levels asked for (0: all) by asking for the frames after it; its `totalFrames` kept only where it is
        the stack's real depth. Without this, a crash 501 frames deep reads as a complete stack of 100."""
        frames = body.setdefault("stackFrames", [])
        total, start, levels = body.get("totalFrames"), arguments.get("startFrame", 0), arguments.get("levels", 0)
        if not isinstance(total, int) or total < page:
            return
        body.pop("totalFrames")  # at least `page`: the real depth is known once a page comes back short
        while frames and (not levels or len(frames) < levels):
            asked = page if not levels else min(page, levels - len(frames))
            more = await self._frames_from(arguments.get("threadId"), start + len(frames), asked, timeout)
            frames.extend(more)
            if len(more) < asked:  # the bottom of the stack
                body["totalFrames"] = start + len(frames)
                return
        if frames and start + len(frames) >= page and not await self._frames_from(
                arguments.get("threadId"), start + len(frames), 1, timeout):
            body["totalFrames"] = start + len(frames)  # exactly as deep as asked for

    async def _frames_from(self, thread: int | None, start: int, levels: int, timeout: float) -> list[dict[str, Any]]:
        """Frames `start` on; none past the bottom (gdb: "Not enough frames in stack")."""
        try:
            body = await self._session.client.request("stackTrace", {"threadId": thread, "startFrame": start,
                                                                     "levels": levels}, timeout=timeout)
        except DebugError as exc:
            if exc.code != ErrorCode.ADAPTER_ERROR:
                raise
            return []
        return list(body.get("stackFrames") or [])

    def exception_info(self, body: dict[str, Any]) -> None:
        """An exceptionInfo answer with the exception's type as the program names it: debugpy appends a note
        to it (where the program is paused) and marks a frame of the trace; the note is kept, in words, in
        the description."""
        profile = self._session.profile
        details = body.get("details") if isinstance(body.get("details"), dict) else {}
        paused_in = None
        if profile.exception_note is not None:
            for holder, key in ((body, "exceptionId"), (details, "typeName"), (details, "fullTypeName")):
                if isinstance(holder.get(key), str) and (note := profile.exception_note.search(holder[key])):
                    holder[key], paused_in = holder[key][: note.start()], note.group("frame")
        trace = details.get("stackTrace")
        above = False  # whether the trace has frames above the one paused in (it starts at the innermost)
        if profile.frame_mark is not None and isinstance(trace, str):
            above = not profile.frame_mark.search(trace.split("\n", 1)[0])
            details["stackTrace"] = profile.frame_mark.sub("", trace)
        if paused_in and above:
            said = body.get("description") or details.get("message")
            body["description"] = f"{said} " * bool(said) + f"(the program is paused in `{paused_in}`; the frames " \
                "above it, where the exception came from, have ended)"

    def _outermost(self, main: str, frames: list[dict[str, Any]], whole: bool) -> int | None:
        """Where the program's own `main` is in a page of the stack. A recursive one calls itself: where
        the page reaches the bottom, it is the last `main`; elsewhere, the one the runtime called, told by
        the frame below it (the C library's, Rust's std), which is neither `main` nor the program's own."""
        for i in range(len(frames) - 1, -1, -1):
            if frames[i].get("name") != main:
                continue
            if whole:
                return i
            below = frames[i + 1] if i + 1 < len(frames) else None
            if below is not None and below.get("name") != main and not self._session.own_code(to_frame(below)):
                return i
        return None

    def stray_step(self, body: dict[str, Any]) -> bool:
        """lldb-dap finishes a `next` that a breakpoint cut short at the next `continue`, and reports that as
        a step stop: nobody asked for it, so the program just goes on (True: ignore this stop)."""
        session = self._session
        if not (session.profile.stray_step_stops and body.get("reason") == "step" and self._last_move == "continue") \
                or self.pausing:  # the pause's own stop: lldb names it after a step still under way
            return False
        log.debug("continuing past a stray step stop")
        asyncio.ensure_future(session.tolerant_request("continue", {"threadId": body.get("threadId")}))
        return True

    def reason(self, body: dict[str, Any]) -> tuple[str, str | None]:
        """The stop's reason and description in the agent's terms: a requested pause is `pause`, whatever
        signal or exception the adapter calls it (lldb: SIGSTOP); gdb's signal names are exceptions."""
        reason = str(body.get("reason", "unknown"))
        description = body.get("description") or body.get("text")
        if self._session.profile.stop_text_detail and body.get("description") and (text := body.get("text")):
            description = f"{body['description']}: {str(text).strip(chr(34))}"  # Delve quotes the text
        numbering = self._session.profile.own_numbering
        if description and numbering is not None and numbering.fullmatch(str(description)):
            description = None  # the adapter's own breakpoint numbers, not the ids an agent knows
        pausing, self.pausing = self.pausing, False
        if pausing and (reason in ("pause", "exception", "signal", "step") or reason.startswith("SIG") or (
                reason == "breakpoint" and not self._session.breakpoints.hit(body.get("hitBreakpointIds") or []))):
            return "pause", description  # lldb, with a step under way: `step` ("trace") or its own breakpoint
        if reason.startswith("SIG"):
            return "exception", description or f"signal {reason}"
        return reason, description

    # -- stops the adapter under-describes ---------------------------------------------------------

    def incomplete(self, body: dict[str, Any]) -> bool:
        """Delve names no thread after a pause; cdt-gdb-adapter never names the breakpoint it stopped at."""
        if not body.get("threadId"):
            return True
        return ("breakpoint" in str(body.get("reason", "")) and not body.get("hitBreakpointIds")
                and bool(self._session.breakpoints.all()))

    async def complete(self, body: dict[str, Any], then: Callable[[dict[str, Any]], None]) -> None:
        """Fill in what the stop left out with a request or two, then take it as the stop (`then`)."""
        session = self._session
        body = dict(body)
        with contextlib.suppress(DebugError):
            if not body.get("threadId"):
                threads = (await session.client.request("threads")).get("threads") or []
                current = [t for t in threads if str(t.get("name", "")).startswith("*")] or threads
                body["threadId"] = next((t["id"] for t in current if t.get("id", 0) > 0), None)
            if body.get("threadId") and "breakpoint" in str(body.get("reason", "")) and not body.get("hitBreakpointIds"):
                stack = await session.client.request("stackTrace", {"threadId": body["threadId"], "levels": 1})
                top = (stack.get("stackFrames") or [{}])[0]
                body["hitBreakpointIds"] = session.breakpoints.adapter_ids_at(
                    (top.get("source") or {}).get("path"), top.get("line"), top.get("name"))
        if session.state != "terminated":
            then(body)
            session.notify()

    # -- stopOnEntry -------------------------------------------------------------------------------

    def hold_at_entry(self) -> None:
        """stopOnEntry as a breakpoint on the program's own entry function, where the adapter's own entry
        stop would be in the loader or the runtime (once the adapter's capabilities are known)."""
        session = self._session
        if session.target.main and session.target.stop_on_entry:
            self._entry = session.register(BreakpointSpec(function=session.target.main), temporary=True)

    def on_stop(self, info: StopInfo) -> None:
        """The stop at the entry stand-in is the entry stop; the stand-in has done its work."""
        bp = self._entry
        if bp is None:
            return
        if bp.adapter_id is None:  # lldb-dap keeps one breakpoint per name: an agent's on main took its place
            if not any(other.adapter_id in info.hit_breakpoint_ids for other in self._session.breakpoints.sharing(bp)):
                return
        elif bp.adapter_id not in info.hit_breakpoint_ids:
            return
        self._entry, info.reason = None, "entry"
        asyncio.ensure_future(self._drop(bp))

    async def drop_entry(self) -> None:
        """The program ended before its entry function ran: forget the stand-in."""
        bp, self._entry = self._entry, None
        if bp is not None:
            await self._drop(bp)

    async def _drop(self, bp: Breakpoint) -> None:
        session = self._session
        if session.breakpoints.discard(bp) and session.state != "terminated":
            with contextlib.suppress(DebugError):
                await session.remove_breakpoints([bp])
