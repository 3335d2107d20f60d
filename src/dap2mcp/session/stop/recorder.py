"""Records the program's state at every stop, and on demand, as snapshots.

At each stop the recorder fetches the stopped thread's view once (stack, scopes, variables)
and keeps it: the stop snapshot is built from it without further requests, and the context
returned by the execution tool reuses it, so recording costs a step nothing extra.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from collections.abc import Callable
from typing import Any

from ...adapters.base import EvaluationRules, ValueShapes
from ...background import unlogged
from ...dap import AdapterRefused, bodies
from ...errors import DebugError, ErrorCode, Failure
from ...snapshots import diff
from ...snapshots.model import Node, Snapshot
from ...snapshots.store import SnapshotStore, new_id
from ..models import Changes, Frame
from .capture import (
    HELPER_NAMES,
    CaptureLimits,
    capture,
    capture_top,
    make_snapshot,
    merge_scopes,
    one_request_expression,
    prefetched,
    snapshot_scopes,
)
from .inspect import (
    FrameView,
    Guess,
    Limits,
    Relist,
    Requester,
    Reread,
    ScopeChoice,
    Variables,
    ViewScope,
    cheap_references,
    clip,
    fetch_variables,
    fetch_view,
    to_frame,
)
from .preview import preview_view
from .short_names import short_name

log = logging.getLogger(__name__)

DEFAULT_FRAMES = 20
ONE_REQUEST_TIMEOUT = 60.0
CHANGES_SHOWN = 20
CALLERS_COMPARED = 8
"""The frames below a stop's own that tell one call of its function from another (see `_call_of`)."""
NAMED_CHARS = 80
"""A function's name in `frameChanged` at most: a C++ template's runs to hundreds of characters, and the
frames name it in full already."""
GUESSED_THREADS = 64
"""Threads whose last stop's ids are kept for reading ahead: the most recently stopped. A Go program can stop on
thousands of goroutines in a long session."""


class StopRecorder:
    def __init__(self, requester: Requester, capabilities: Callable[[], dict[str, Any]], limits: Limits,
                 rules: EvaluationRules | None = None, *, carried: list[Snapshot] | None = None,
                 capture_limits: CaptureLimits | None = None, helper: str | None = None,
                 own: Callable[[Frame], bool] | None = None, steady_ids: bool = False,
                 library_files: re.Pattern[str] | None = None, relist: Relist | None = None,
                 lists_all_children: bool = False, shapes: ValueShapes | None = None,
                 reread: Reread | None = None) -> None:
        """`rules`: how the adapter's scopes and variables read (the profile's `evaluation` part)."""
        rules = rules or EvaluationRules()
        self._requester = requester
        self._relist = relist
        self._reread = reread
        """Where a scope lists copies taken at the stop: reads their values again after a change (see `capture`)."""
        self._shapes = shapes or ValueShapes()
        self._choice = ScopeChoice(on_request=rules.scopes_on_request, closures=rules.library_scopes,
                                   library_files=library_files)
        self._capabilities = capabilities
        self._hidden = rules.hidden_variables
        self._cut_markers = rules.cut_markers
        self._helper = helper
        self._own = own
        self._guesses: dict[int, Guess] | None = {} if steady_ids else None
        """Per thread, the ids its last stop's view was read with (adapters with `steady_ids` only). They hold
        for one adapter process: a recorder lives as long as its session, and a new program gets a new one."""
        self._scopes_by_frame = rules.scopes_by_frame
        self._lists_all_children = lists_all_children
        self._limits = limits
        self.capture_limits = capture_limits or CaptureLimits()
        self.store = SnapshotStore(carried)
        self.run = new_id()  # stop and created snapshots of this run compare object addresses exactly
        self._pending: asyncio.Future[FrameView] | None = None
        self._pending_cycle = 0
        self._view_fresh = False
        self._creating: set[asyncio.Future[Any]] = set()
        self._moving = False
        """Set while the program is being resumed (or the session replaced): no new snapshot may start."""
        self.recorded: Callable[[], None] = lambda: None
        """Called when a stop snapshot is in the store."""
        self._compared: tuple[Snapshot, Snapshot, Changes] | None = None
        """The last two stop snapshots compared, and what changed between them."""

    def hold_new(self) -> None:
        """The program is about to move (or the session to be replaced): no new snapshot may start."""
        self._moving = True

    def allow_new(self) -> None:
        """The move did not happen: snapshots of the stop may be taken again."""
        self._moving = False

    # -- the stop snapshot -------------------------------------------------------------------

    def on_stop(self, cycle: int, thread_id: int | None, reason: str) -> None:
        """Start fetching the stop's view now, before anything can change the program's state."""
        self._pending_cycle = cycle
        self._moving = False
        self.store.current_cycle = cycle
        self._view_fresh = True
        if thread_id is None:
            self._pending = None
            return
        self._pending = unlogged(asyncio.ensure_future(self._record(cycle, thread_id, reason)))

    async def _record(self, cycle: int, thread_id: int, reason: str) -> FrameView:
        guesses = self._guesses
        early: list[tuple[FrameView, Snapshot]] = []

        def progress(partial: FrameView) -> None:
            """Build the snapshot once its scopes are in, while the adapter still answers for the others."""
            if not early and all(s.reference in partial.variables for s in snapshot_scopes(partial.scopes)):
                early.append((partial, snapshot := self._stop_snapshot(cycle, partial)))
                if (old := self.store.stop(cycle - 1)) is not None:
                    self._compared = (old, snapshot, self._compare(old, snapshot))

        view, _ = await fetch_view(self._requester, self._capabilities(), thread_id=thread_id, frame_id=None,
                                   max_frames=DEFAULT_FRAMES, reason=reason, limits=self._limits, own=self._own,
                                   guess=guesses.get(thread_id) if guesses is not None else None,
                                   choice=self._choice, progress=progress, relist=self._relist)
        if guesses is not None and view.focus is not None:
            guesses.pop(thread_id, None)
            guesses[thread_id] = Guess(view.focus.id, cheap_references(view.scopes),
                                       tuple(dataclasses.replace(s) for s in view.scopes) if self._scopes_by_frame else None)
            while len(guesses) > GUESSED_THREADS:
                del guesses[next(iter(guesses))]  # the thread stopped least recently
        await preview_view(self._requester, view, self._shapes, self._limits, self._hidden)
        # not if the guess failed and all was read again, nor where previews now show what the adapter's text hid
        built = early and early[0][0].variables is view.variables and not _previewed(view)
        self.store.record_stop(early[0][1] if built else self._stop_snapshot(cycle, view))
        self.recorded()
        return view

    def _stop_snapshot(self, cycle: int, view: FrameView) -> Snapshot:
        """The stop's top-level variables as its context shows them (previews included: see `capture_top`)."""
        top = merge_scopes([view.variables.get(s.reference, []) for s in snapshot_scopes(view.scopes)], self._hidden)
        roots, truncated = capture_top(top, limits=self.capture_limits, previews=view.previews)
        return make_snapshot(
            snapshot_id=new_id(), label=f"@c{cycle}", thread_id=view.thread_id, frame_index=view.focus_index,
            function_name=view.focus.function if view.focus is not None else "",
            depth=0, cycle=cycle, roots=roots, truncated=truncated, auto=True, run=self.run, call=_call_of(view),
            partial=any(s.unreadable for s in view.scopes))

    async def settle(self) -> None:
        """Wait until nothing is reading the stopped program: its stop recording and any snapshot being made.

        Execution tools call this before the program moves, evaluations before they may change it.
        """
        while waiting := [t for t in (self._pending, *self._creating) if t is not None and not t.done()]:
            for task in waiting:  # a snapshot begun while waiting is waited for too
                await _quietly(task)

    @property
    def last_view(self) -> FrameView | None:
        """The current stop's view, once fetched (without waiting for it)."""
        task = self._pending
        if task is None or not task.done() or task.cancelled() or task.exception() is not None:
            return None
        return task.result()

    def state_changed(self) -> None:
        """An evaluation or assignment may have changed variables: the kept view is stale."""
        self._view_fresh = False

    async def reread(self, frame_id: int, scopes: list[ViewScope], variables: Variables) -> None:
        """Where the adapter lists copies taken at the stop, and an evaluation or assignment since may have changed
        the program's variables: their values read again, in place (`variables` by scope reference)."""
        if self._reread is not None and not self._view_fresh:
            await self._reread(frame_id, scopes, variables)

    async def stop_view(self, cycle: int) -> FrameView | None:
        """The view fetched at stop `cycle`, if it is still what the program holds."""
        if self._pending is None or cycle != self._pending_cycle or not self._view_fresh:
            return None
        return await _quietly(self._pending)  # on failure the context fetch that follows reports it

    def changes(self, cycle: int) -> Changes | None:
        """What changed at top level from the previous stop to stop `cycle`, bounded."""
        new, old = self.store.stop(cycle), self.store.stop(cycle - 1)
        if new is None or old is None:
            return None
        if self._compared is not None and self._compared[0] is old and self._compared[1] is new:
            return self._compared[2]  # worked out while the stop's last scopes were being read
        return self._compare(old, new)

    def _compare(self, old: Snapshot, new: Snapshot) -> Changes:
        if (old.function_name, old.thread_id, old.call) != (new.function_name, new.thread_id, new.call):
            named = clip(short_name(old.function_name, NAMED_CHARS), NAMED_CHARS)[0]
            where = f"another call of `{named}`" if old.function_name == new.function_name else f"`{named}`"
            return Changes(since=old.cycle, frameChanged=f"the previous stop was in {where} "
                           f"(thread {old.thread_id}): not compared")
        if old.partial or new.partial:
            return Changes(since=old.cycle, notCompared="the adapter would not list some of the frame's variables "
                           f"at stop {old.cycle if old.partial else new.cycle} (see the scope's `unreadable`)")
        body, omitted = diff.bounded(diff.variables(old, new, diff.compare(old, new)), CHANGES_SHOWN)
        for entry in (*body["added"], *body["removed"], *body["modified"]):
            for key in ("value", "oldValue", "newValue", "type", "oldType"):
                if key in entry:
                    entry[key] = clip(entry[key], self._limits.value_chars)[0]
            if entry.get("path") == entry["name"]:
                del entry["path"]
        return Changes(since=old.cycle, added=body["added"] or None, removed=body["removed"] or None,
                       modified=body["modified"] or None, truncated=bool(omitted) or None)

    # -- snapshots on demand -----------------------------------------------------------------

    async def create(self, *, cycle: int, thread_id: int, frame_index: int, depth: int,
                     label: str | None) -> tuple[Snapshot, str | None]:
        """Capture a frame at `depth`. The program cannot move meanwhile: `settle` waits for this."""
        self.store.check_room()
        if self._moving:
            raise DebugError(ErrorCode.NOT_PAUSED, "the program is being resumed; take the snapshot at the next stop")
        task = asyncio.ensure_future(self._capture(thread_id, frame_index, depth))
        self._creating.add(task)
        try:
            frame, roots, truncated = await task
        finally:
            self._creating.discard(task)
        if cycle != self._pending_cycle:
            raise DebugError(ErrorCode.NOT_PAUSED, "the program moved on while the snapshot was being taken; "
                             "nothing was saved")
        snapshot = make_snapshot(snapshot_id=new_id(), label=label or self.store.next_label(), thread_id=thread_id,
                                 frame_index=frame_index, function_name=frame.function, depth=depth, cycle=cycle,
                                 roots=roots, truncated=truncated, run=self.run)
        return snapshot, self.store.save(snapshot)

    async def _capture(self, thread_id: int, frame_index: int, depth: int) -> tuple[Frame, tuple[Node, ...], bool]:
        try:
            body = await self._requester.request("stackTrace", {"threadId": thread_id, "startFrame": 0,
                                                                "levels": frame_index + 1})
        except Failure as exc:
            if isinstance(exc, AdapterRefused):
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot read thread {thread_id}: {exc.message}") from exc
            raise
        frames = body.stackFrames
        if frame_index >= len(frames):
            raise DebugError(ErrorCode.INVALID_ARGUMENT,
                             f"thread {thread_id} has {len(frames)} frames; frame_index {frame_index} is out of range")
        frame = to_frame(frames[frame_index])
        scopes = (await self._requester.request("scopes", {"frameId": frame.id})).scopes
        try:
            listed = snapshot_scopes(ScopeChoice().mark(scopes))
            per_scope = await asyncio.gather(*(self._fetch(s.reference) for s in listed))
            await self.reread(frame.id, listed, {s.reference: v for s, v in zip(listed, per_scope, strict=True)})
        except AdapterRefused as exc:  # cdt-gdb-adapter, an outer frame holding an array: "No symbol "arr" in current context"
            raise AdapterRefused(exc.command, f"the adapter would not list the variables of frame {frame_index} "
                                 f"(`{frame.function}`): {exc.message.rstrip('.')}; nothing was saved. `evaluate` with "
                                 "that frame's id from `context` may still read them") from exc
        top = merge_scopes(list(per_scope), self._hidden)
        known: Variables = {}
        usable = self._helper and not HELPER_NAMES & {v.name for v in top}
        if depth > 0 and usable and self.capture_limits.one_request:
            top, known = await self._in_one_request(frame.id, top, depth)
        roots, truncated = await capture(self._fetch, top, depth=depth, hidden=self._hidden,
                                         limits=self.capture_limits, cut_markers=self._cut_markers, known=known,
                                         unordered=self._shapes.unordered, callables=self._shapes.callables)
        return frame, roots, truncated

    async def _in_one_request(self, frame_id: int, top: list[bodies.Variable],
                              depth: int) -> tuple[list[bodies.Variable], Variables]:
        """Let the debuggee expand everything at once; request by request if the helper cannot run."""
        names = [v.name for v in top if v.variablesReference]
        expression = one_request_expression(self._helper or "", names, depth, self.capture_limits,
                                            self._shapes.callables)
        try:
            body = await self._requester.request("evaluate", {
                "expression": expression, "frameId": frame_id, "context": "clipboard", "format": {"rawString": True},
            }, timeout=ONE_REQUEST_TIMEOUT)
            return prefetched(str(body.get("result", "")), top)
        except AdapterRefused as exc:
            log.info("capture helper failed, expanding request by request: %s", exc.message)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            log.info("capture helper gave an unusable reply, expanding request by request: %r", exc)
        return top, {}

    async def _fetch(self, reference: int) -> list[bodies.Variable]:
        page = self.capture_limits.children + 1 if self._lists_all_children else None  # one more: it says "cut"
        return await fetch_variables(self._requester, reference, page)

    def cancel(self) -> None:
        if self._pending is not None:
            self._pending.cancel()


async def _quietly(task: asyncio.Future[Any]) -> Any:
    """The task's result, or None if it failed or was cancelled (the session closing under it).

    Only the task's own cancellation is swallowed: if the caller is being cancelled, that goes on.
    """
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        if task.cancelled():
            return None
        raise
    except Exception:
        return None


def _call_of(view: FrameView) -> tuple[object, ...] | None:
    """What stays the same while the focused frame's call runs: how deep it is, and the calls below it
    (where each called the next; its own line moves with every step). None where the depth is unknown
    (a full page and no count, as Delve gives): a recursion's levels would all look alike."""
    if view.total_frames is not None:
        depth = view.total_frames
    elif view.more_frames:
        return None
    else:
        depth = len(view.frames)
    below = view.frames[view.focus_index + 1:][:CALLERS_COMPARED]
    return (depth - view.focus_index, view.focus.file if view.focus else None,
            *((f.function, f.file, f.line) for f in below))


def _previewed(view: FrameView) -> bool:
    """Whether a preview gave any of the snapshot's variables a text of its own."""
    return any(id(raw) in view.previews for scope in snapshot_scopes(view.scopes)
               for raw in view.variables.get(scope.reference, []))
