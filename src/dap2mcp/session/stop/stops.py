"""What an adapter's `stopped` event means, in the agent's terms: why the program stopped (a requested pause is
`pause` whatever the adapter calls it, a panic hook's breakpoint is an exception), at which of the agent's
breakpoints, and on which thread where the adapter leaves that out.

The differences between adapters are data on the profile; this module holds the one piece of state that
reading them needs, the stand-in breakpoint for `stopOnEntry`.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...dap import bodies
from ...errors import Failure
from .. import source_lines
from ..breakpoints.specs import BreakpointSpec
from ..models import StopInfo
from ..program.run import Run
from .inspect import top_frame

if TYPE_CHECKING:
    from ...adapters import AdapterProfile, Target
    from ..breakpoints.breakpoint import Breakpoint
    from ..breakpoints.registry import BreakpointRegistry
    from .inspect import Requester


_AS_ASKED = {"next": "step over", "stepIn": "step in", "stepOut": "step out"}
"""DAP's moves in the words of the tools that ask for them."""


class Stops:
    def __init__(self, profile: AdapterProfile, registry: BreakpointRegistry, run: Run) -> None:
        self._profile = profile
        self._registry = registry
        self._run = run
        self._entry: Breakpoint | None = None
        self._spent: Breakpoint | None = None
        self._entry_pause = False
        self._core = False
        """The program is a core file, whose first stop is its state (`reason: core`)."""
        """The adapter's own hold at the start is the entry stop (`StopRules.entry_pause`), still to come."""
        self._step_from: bodies.StackFrame | None = None
        """The top frame a step started from, where a breakpoint stop may be the step's (`statement_lines`)."""
        self._moved_from: _Place | None = None
        """Where the last move started, where a line's breakpoint binds at several places (`places_a_line`)."""

    async def step_starts(self, adapter: Requester, thread_id: int) -> None:
        """Note the frame a step leaves, where the profile needs it to tell the step's own stops."""
        self._step_from = None
        if self._profile.breakpoints.statement_lines is not None:
            with contextlib.suppress(Failure):
                self._step_from = await top_frame(adapter, thread_id)

    async def move_starts(self, adapter: Requester, thread_id: int, on_breakpoint_line: bool) -> None:
        """Note where a move (a step or a `continue`) leaves from, where a stop at a later place of the same line
        may be no stop of its own (see `same_run_of_line`): only from a line of a line breakpoint (one request)."""
        self._moved_from = None
        if self._profile.breakpoints.places_a_line and on_breakpoint_line:
            with contextlib.suppress(Failure):
                self._moved_from = await _place(adapter, thread_id)

    def may_be_same_line(self, body: bodies.StoppedBody) -> bool:
        """A stop at one of the agent's line breakpoints after a move noted by `move_starts` (lldb numbers its
        watchpoints apart from its breakpoints, and names them in the description: such a stop is a watch's)."""
        start = self._moved_from
        return start is not None and body.reason == "breakpoint" and body.threadId == start.thread \
            and "watchpoint" not in (body.description or "") \
            and any(bp.kind == "line" for bp in self._registry.hit(body.hitBreakpointIds or []))

    async def same_run_of_line(self, body: bodies.StoppedBody, adapter: Requester) -> bool:
        """Whether a breakpoint stop is at a later place of the line the move left, in the same frame: lldb binds a
        Rust `println!` line at three places of its function, and each step and `continue` stopped at the next
        one, `reason: breakpoint` on the same line. The line's next run starts again at its first place."""
        start = self._moved_from
        try:
            now = await _place(adapter, body.threadId) if start is not None else None
        except Failure:
            return False
        if start is None or now is None or now.pc is None or start.pc is None \
                or (now.path, now.line, now.depth) != (start.path, start.line, start.depth) or now.pc <= start.pc:
            return False
        self._moved_from = now  # the line may have a third place
        return True

    def read(self, body: bodies.StoppedBody) -> StopInfo:
        """The stop a (complete) `stopped` event describes."""
        reason, description = self._reason(body)
        if (caught := self._registry.caught_by(body.hitBreakpointIds or [])) is not None:
            reason, description = "exception", caught.label  # the message is read from the output, with the context
        previous = self._run.stop_info
        info = StopInfo(reason=reason, thread_id=body.threadId if body.threadId is not None
                        else previous.thread_id if previous else None,
                        description=description, hit_breakpoint_ids=list(body.hitBreakpointIds or []))
        if self._at_entry(info):
            info.reason = "entry"
            self._spent, self._entry = self._entry, None
        elif self._core and self._run.stop_count == 0:
            info.reason = "core"
            info.description = info.description or "the program's state when the core was written"
        elif self._entry_pause:
            self._entry_pause = False
            if info.reason == "pause" and self._run.stop_count == 0:
                info.reason = "entry"
        return info

    def _reason(self, body: bodies.StoppedBody) -> tuple[str, str | None]:
        """The stop's reason and description in the agent's terms: a requested pause is `pause`, whatever
        signal or exception the adapter calls it (lldb: SIGSTOP); gdb's signal names are exceptions."""
        profile = self._profile
        reason = body.reason or "unknown"
        description = body.description or body.text
        if profile.stops.stop_text_detail and body.description and (text := body.text):
            description = f"{body.description}: {text.strip(chr(34))}"  # Delve quotes the text
        if profile.stops.failed_command_stop is not None and body.description == profile.stops.failed_command_stop \
                and reason == "exception":
            self._run.take_pause()
            move = _AS_ASKED.get(self._run.last_move, self._run.last_move or "command")
            return ("step failed" if self._run.stepping else "continue failed"), (
                f"{profile.name} could not carry out the `{move}`: {(body.text or '').strip(chr(34))} "
                "(the thread may be in code without symbols, as where a pause lands in the vDSO); the program "
                "is paused where this stop shows it: a breakpoint on the line after, then `continue`, gets past")
        if description and profile.stops.own_numbering is not None and profile.stops.own_numbering.fullmatch(str(description)):
            description = None  # the adapter's own breakpoint numbers, not the ids an agent knows
        if self._run.take_pause() and (reason in ("pause", "exception", "signal", "step") or reason.startswith("SIG") or (
                reason == "breakpoint" and not self._registry.hit(body.hitBreakpointIds or []))):
            return "pause", description  # lldb, with a step under way: `step` ("trace") or its own breakpoint
        if reason.startswith("SIG"):
            return "exception", description or f"signal {reason}"
        return reason, description

    # -- stops the adapter under-describes ---------------------------------------------------------

    def incomplete(self, body: bodies.StoppedBody) -> bool:
        """Delve names no thread after a pause; cdt-gdb-adapter never names the breakpoint it stopped at."""
        if body.threadId is None:  # js-debug's one thread is 0
            return True
        if self._untold(body):
            return True
        if self._step_from is not None and self._run.stepping and body.reason == "breakpoint":
            return True
        return "breakpoint" in body.reason and not body.hitBreakpointIds and bool(self._registry.all())

    async def complete(self, body: bodies.StoppedBody, adapter: Requester) -> bodies.StoppedBody:
        """What the stop left out, filled in with a request or two (as far as the adapter answers them)."""
        body = body.model_copy()
        try:
            if body.threadId is None:
                threads = (await adapter.request("threads")).threads
                current = [t for t in threads if t.name.startswith("*")] or threads
                body.threadId = next((t.id for t in current if t.id > 0), None)
            if body.threadId is not None and "breakpoint" in body.reason and not body.hitBreakpointIds:
                top = await top_frame(adapter, body.threadId)
                body.hitBreakpointIds = self._registry.adapter_ids_at(top.path, top.line, top.name) if top else []
            if self._step_from is not None and self._run.stepping and body.reason == "breakpoint" \
                    and body.threadId is not None and self._same_statement(await top_frame(adapter, body.threadId)):
                body.reason, body.hitBreakpointIds = "step", []  # not a hit: the statement was stopped at
            if (expression := self._untold(body)) is not None and body.threadId is not None:
                top = await top_frame(adapter, body.threadId)
                said = await adapter.request("evaluate", {"expression": expression, "frameId": top.id if top else None,
                                                          "context": "watch"})
                if str(said.get("type")) == "string" and said.get("result"):
                    body.text = said["result"]
        except Failure:
            pass
        return body

    def _same_statement(self, top: bodies.StackFrame | None) -> bool:
        """Whether a stop's top frame is the frame the step left, on another line of the statement it was on."""
        start, lines = self._step_from, self._profile.breakpoints.statement_lines
        if lines is None or start is None or top is None or not top.path or top.id != start.id or top.path != start.path:
            return False
        span = lines(top.path, start.line)
        return span is not None and span[0] <= top.line <= span[1]

    def may_be_unasked(self, body: bodies.StoppedBody) -> bool:
        """A pause described as the adapter describes one nobody asked for (`StopRules.unasked_pause`), while no
        `pause` of the agent's is awaited."""
        unasked = self._profile.stops.unasked_pause
        return unasked is not None and body.reason == "pause" and body.description == unasked[0] \
            and body.threadId is not None and not self._run.pausing

    async def unasked(self, body: bodies.StoppedBody, adapter: Requester) -> bool:
        """Whether such a pause is none of the program's: its line, read here, holds no statement that asks for
        one. Where the line cannot be read the stop is taken as the program's."""
        unasked = self._profile.stops.unasked_pause
        try:
            top = await top_frame(adapter, body.threadId)
        except Failure:
            return False
        text = source_lines.line_text(top.path, top.line) if top is not None else None
        return unasked is not None and text is not None and not unasked[1].search(text)

    def _untold(self, body: bodies.StoppedBody) -> str | None:
        """The expression that tells a stop's text the adapter left out (`AdapterProfile.stops.untold_texts`)."""
        if body.text:
            return None
        return dict(self._profile.stops.untold_texts).get(str(body.description))

    # -- stopOnEntry -------------------------------------------------------------------------------

    def hold_at_entry(self, target: Target) -> None:
        """stopOnEntry as a breakpoint on the program's own entry function, where the adapter's own entry
        stop would be in the loader or the runtime, or on its top level's first statement, where the adapter's
        would come later (`Target.entry_line`; once the adapter's capabilities are known)."""
        self._core = target.mode == "core"
        if not target.stop_on_entry:
            return
        if self._profile.stops.entry_pause:
            self._entry_pause = True
            return
        if target.main:
            self._entry = self._registry.register(BreakpointSpec(function=target.main), target.cwd, temporary=True)
        elif target.entry_line:
            file, line = target.entry_line
            self._entry = self._registry.register(BreakpointSpec(file=file, line=line), target.cwd, temporary=True)

    def _at_entry(self, info: StopInfo) -> bool:
        """The stop at the entry stand-in is the entry stop; the stand-in has done its work (`take_spent`)."""
        bp = self._entry
        if bp is None:
            return False
        if bp.adapter_id is None:  # lldb-dap keeps one breakpoint per name: an agent's on main took its place
            return any(other.adapter_id in info.hit_breakpoint_ids for other in self._registry.sharing(bp))
        return bp.adapter_id in info.hit_breakpoint_ids

    def take_spent(self) -> Breakpoint | None:
        """The stand-in whose stop came: to be removed from the registry and the adapter."""
        bp, self._spent = self._spent, None
        return bp

    def give_up_entry(self) -> Breakpoint | None:
        """The stand-in of a program that ended before its entry function ran: to be removed."""
        bp, self._entry = self._entry, None
        return bp


@dataclass(frozen=True)
class _Place:
    """A thread's innermost frame: its line, how deep the stack is, and the address it is at."""

    thread: int
    path: str | None
    line: int | None
    depth: int | None
    pc: int | None


async def _place(adapter: Requester, thread_id: int) -> _Place:
    stack = await adapter.request("stackTrace", {"threadId": thread_id, "levels": 1})
    top = stack.stackFrames[0] if stack.stackFrames else None
    reference = (top.instructionPointerReference if top is not None else None) or ""
    return _Place(thread_id, top.path if top is not None else None, top.line if top is not None else None,
                  stack.totalFrames, int(reference, 16) if reference.startswith("0x") else None)

