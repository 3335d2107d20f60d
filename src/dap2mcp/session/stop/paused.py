"""The context an agent gets, put together from the session's run state, recorder, adapter and registry; and,
at a stop, the frame it focuses on, which `evaluate`, `set-variable` and `step` start from."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from dataclasses import dataclass
from typing import Any

from ...adapters.base import FunctionFilter
from ...dap import AdapterRefused
from ...errors import DebugError, ErrorCode, Failure
from ..breakpoints import watches
from ..models import Context, ExceptionDetails, Location, Returned, StopInfo, Thread, WatchReport
from ..session import DebugSession
from ..source_lines import line_text
from .folding import fold
from .inspect import FrameView, ScopeChoice, clip, fetch_view, has_source, to_frame, view_context
from .preview import preview_view
from .recorder import DEFAULT_FRAMES


async def context(session: DebugSession, *, thread_id: int | None = None, frame_id: int | None = None,
                  max_frames: int = DEFAULT_FRAMES, consume_output: bool = False, with_threads: bool = True,
                  scopes: frozenset[str] = frozenset(), threads_from: int = 0, library_frames: bool = False) -> Context:
    """The session's context now: at a stop, the stop's (see `paused_context`); else its state, and how it
    ended. With the program's output since the last context (`consume_output`: taken, not just shown).
    `scopes`: names of scopes to list that a stop only names (Python's Globals, registers); `threads_from`:
    the first thread listed, by its place in the program's list (a page past the first); `library_frames`: the
    frames below the program's own listed too, not folded (see folding.py)."""
    ctx = None
    if session.state == "paused" and session.stop_info is not None:
        try:
            ctx = await paused_context(session, session.stop_info, thread_id, frame_id, max_frames, with_threads,
                                       scopes, threads_from, library_frames)
        except Failure:
            if session.state != "terminated":  # ended meanwhile (a `stop`): say so instead
                raise
    if ctx is None:
        ctx = Context(state=session.state)
        if session.state == "terminated":
            ctx = Context(state="terminated", exitCode=session.exit_code, description=session.ended_text())
    take = session.output.take_new if consume_output else session.output.peek_new
    out = take(session.limits.output_chars)
    if out.text or out.truncated:
        ctx.output = out
    said = (session.adapter_output.take_new if consume_output else session.adapter_output.peek_new)(
        session.limits.adapter_output_chars)
    if said.text:
        ctx.adapterOutput = said
    ctx.sessionId, ctx.parentId = session.id, session.parent_id
    return ctx


async def paused_context(session: DebugSession, info: StopInfo, thread_id: int | None, frame_id: int | None,
                         max_frames: int, with_threads: bool, wanted: frozenset[str] = frozenset(),
                         threads_from: int = 0, library_frames: bool = False) -> Context:
    """The context at the current stop: the view recorded with the stop's snapshot where it fits the
    request, else one fetched now; with what the breakpoint registry knows about the hit. `wanted`
    scopes (lower-cased names) are listed although a stop only names them."""
    known = session.frames.get(frame_id) if frame_id is not None else None
    thread = await session.known_thread(thread_id if thread_id is not None or known is None else known[0])
    reason = info.reason if thread == info.thread_id else "pause"
    cycle = session.stop_count
    view, threads = None, None
    if thread == info.thread_id and frame_id is None and max_frames == DEFAULT_FRAMES and not wanted:
        view = await session.recorder.stop_view(cycle)
    if view is None:
        choice = ScopeChoice(on_request=session.profile.evaluation.scopes_on_request - wanted, wanted=wanted,
                             closures=session.profile.evaluation.library_scopes, library_files=session.profile.library_files)
        view, threads = await fetch_view(session, session.capabilities, thread_id=thread, frame_id=frame_id,
                                         max_frames=max_frames, reason=reason, limits=session.limits,
                                         with_threads=with_threads, own=session.own_code, choice=choice,
                                         relist=session.own.unlisted_variables, named=thread_id is not None,
                                         frame_index=known[1] if known is not None and known[0] == thread else None)
        if missing := wanted - {s.name.lower() for s in view.scopes}:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"the frame has no scope {', '.join(sorted(missing))}; "
                             f"its scopes: {', '.join(s.name for s in view.scopes) or 'none'}")
        if view.focus is not None:
            await session.recorder.reread(view.focus.id, view.scopes, view.variables)
        await preview_view(session, view, session.profile.values, session.limits, session.profile.evaluation.hidden_variables)
    elif with_threads:
        threads = (await session.request("threads")).threads
    ctx = view_context(view, reason=reason, description=info.description, limits=session.limits, threads=threads,
                       hidden=session.profile.evaluation.hidden_variables, threads_from=threads_from,
                       toolchain=session.profile.values.toolchain_globals)
    if ctx.threads and session.profile.stops.threads_named_by_runtime:
        await _where_threads_are(session, ctx.threads)
    ctx.cycle = cycle
    ctx.changes = session.recorder.changes(cycle)
    _take_returned(ctx, session.profile.stops.return_value, shown=reason == "step" and thread == info.thread_id)
    session.run.frames_handed_out(thread, ((f.id, index) for index, f in enumerate(ctx.frames or [])))
    if not library_frames:
        fold(ctx, session.own_code, view.focus.id if view.focus is not None else None)
    if view.focus is not None and view.focus_place is not None:  # below the frames listed: its id is valid too
        session.run.frames_handed_out(thread, [(view.focus.id, view.focus_place)])
    hit = session.breakpoints.hit(info.hit_breakpoint_ids)
    if any(bp.temporary and not bp.exception for bp in hit) or _at_temporary(session, ctx):
        ctx.description = "reached the `to` location of `continue`"
    caught = session.breakpoints.caught_by(info.hit_breakpoint_ids) if info.reason == "exception" else None
    if caught is not None and thread == info.thread_id and caught.report is not None:
        ctx.exception, failed_at = await _reported(session, caught, view.focus.id if view.focus else None)
        ctx.location = failed_at or ctx.location
        ctx.description = f"{caught.label}: {ctx.exception.message}" if ctx.exception.message else caught.label
        hit = session.breakpoints.count_exception(cycle, None, None, caught)
    elif caught is not None and thread == info.thread_id:
        ctx.exception = await _caught(session, caught)
        ctx.description = f"{caught.label}: {ctx.exception.message}" if ctx.exception.message else caught.label
        hit = session.breakpoints.count_exception(cycle, None, None, caught)
    elif info.reason == "exception" and ctx.exception is not None and thread == info.thread_id:
        hit = session.breakpoints.count_exception(cycle, ctx.exception.typeName, ctx.exception.breakMode)
    if visible := [bp.id for bp in hit if not bp.temporary]:
        ctx.breakpointIds = visible
    if thread == info.thread_id:
        watches.apply(await _watch_report(session, info, ctx), ctx)
    return ctx


def _take_returned(ctx: Context, pattern: re.Pattern[str] | None, shown: bool) -> None:
    """The adapter's variables naming what a function returned, out of the scopes and `changes`
    (`AdapterProfile.stops.return_value`): the context's `returned` at a step's stop where they are new (the step
    came out of a function, or called one: the same frame at the stop before did not list them so), nowhere
    at others."""
    if pattern is None:
        return
    changes = ctx.changes
    compared = changes is not None and not changes.frameChanged and not changes.notCompared
    fresh = {c.name for c in (changes.added or []) + (changes.modified or [])} if changes is not None else set()
    returned = []
    for scope in ctx.scopes or []:
        kept = []
        for variable in scope.variables:
            if (found := pattern.match(variable.name)) is None:
                kept.append(variable)
            elif not compared or variable.name in fresh:
                returned.append(Returned(function=found["function"], value=variable.value, type=variable.type))
        scope.variables = kept
    if changes is not None:
        for field in ("added", "removed", "modified"):
            if (listed := getattr(changes, field)) is not None:
                setattr(changes, field, [c for c in listed if not pattern.match(c.name)] or None)
    ctx.returned = returned if shown and returned else None


async def _watch_report(session: DebugSession, info: StopInfo, ctx: Context) -> WatchReport:
    """The watches' report of this stop, made by the first context of it."""
    report = session.watch_report
    if report is None or report.cycle != session.stop_count:
        report = await watches.after_stop(session, info.thread_id, info.reason, info.description,
                                          ctx.frames[0].id if ctx.frames else None)
        session.watch_report = report
    return report


THREAD_FRAMES = 30
"""How deep a thread's stack is read for the program's own frame (a goroutine waits a few runtime calls down)."""


async def _where_threads_are(session: DebugSession, threads: list[Thread]) -> None:
    """`Thread.at` for each listed thread: the first frame of the program's own on its stack, read together."""
    async def own_frame(thread: Thread) -> None:
        try:
            frames = [to_frame(raw) for raw in await session.stack(thread.id, THREAD_FRAMES)]
        except AdapterRefused:
            return  # a goroutine that ended meanwhile: named as the adapter named it
        if (own := next((f for f in frames if session.own_code(f)), None)) is not None:
            thread.at = Location(file=own.file, line=own.line, function=own.function)

    await asyncio.gather(*(own_frame(thread) for thread in threads))


async def _caught(session: DebugSession, caught: FunctionFilter) -> ExceptionDetails:
    """What a function filter stopped at, from what the runtime printed just before (Rust's panic hook:
    "thread 'main' panicked at src/main.rs:10:5:\nindex out of bounds: ..."); the adapter knows only
    that a breakpoint was hit."""
    await session.output.settle(0.5)
    said = caught.message.finditer(session.output.read(0, 20_000).text) if caught.message is not None else ()
    found = next(reversed(list(said)), None)  # this stop's
    message = clip(found.group("message").strip(), session.limits.value_chars * 4)[0] if found else None
    return ExceptionDetails(exceptionId=caught.filter, typeName=caught.label, message=message,
                            description=f"at {found.group('place')}" if found else None)


async def _reported(session: DebugSession, caught: FunctionFilter, frame_id: int | None
                    ) -> tuple[ExceptionDetails, Location | None]:
    """What a function filter at a line of dap2mcp's own stopped at, as the code there put it (`FunctionFilter.report`):
    the message, and the place in the program's own code it failed at, which the stop is shown at (a test runner
    records a failure after the test's frame has returned: the frames listed are the runner's)."""
    report: dict[str, Any] = {}
    if frame_id is not None:
        with contextlib.suppress(Failure, ValueError, TypeError):
            body, _ = await session.own.evaluate(caught.report, frame_id, "clipboard")  # the whole string, quoted
            said = json.loads(str(body.get("result")))
            report = json.loads(said) if isinstance(said, str) else said
    report = report if isinstance(report, dict) else {}
    frame = report.get("frame") if isinstance(report.get("frame"), dict) else None
    message = clip(str(report["message"]).strip(), session.limits.value_chars * 4)[0] if report.get("message") else None
    if frame is None:
        return ExceptionDetails(exceptionId=caught.filter, typeName=caught.label, message=message), None
    place = f"{frame.get('file')}:{frame.get('line')}"
    where = Location(file=frame.get("file"), line=frame.get("line"), column=frame.get("column"),
                     function=frame.get("function"), text=line_text(frame.get("file"), frame.get("line")))
    return ExceptionDetails(exceptionId=caught.filter, typeName=caught.label, message=message, description=(
        f"{'in test ' + repr(report['test']) + ' ' if report.get('test') else ''}at {place}; the runner caught the "
        "error, so the frame it was thrown in has returned: the frames listed are the runner's, and `error` in the "
        "top one is what was thrown")), where


async def focused_frame_id(session: DebugSession) -> int:
    """The frame `evaluate` and `set-variable` use unless told: the one the stop's context focused on
    (the top, or at a pause or a crash the program's own frame below the runtime's or library's)."""
    info = session.require_paused()
    if (view := _stop_view(session, info)) is not None and view.focus is not None:
        return view.focus.id
    thread = session.thread(None)
    frames = await session.stack(thread)
    if not frames:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"thread {info.thread_id} has no frames")
    session.run.frames_handed_out(thread, [(frames[0].id, 0)])
    return frames[0].id


async def steppable_thread(session: DebugSession, thread_id: int | None) -> int:
    """The thread a step is asked of, once known to take it now. A thread other than the one that stopped may
    be unable to (the profile's `step_ready_check`): sent, the step would leave the program held, neither
    stopped nor running, until the thread ran again; refused instead."""
    info = session.require_paused()
    thread = await session.known_thread(thread_id)
    if await held(session, thread) is False:  # None: it cannot tell; step as asked
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"thread {thread} is not stopped at a line of code but blocked "
                         "inside a native call (waiting on a lock, a future's result, I/O): "
                         f"{session.profile.name} would carry out the step only once that call returns, and "
                         "hold every other thread until then, so the program would hang. Step the thread "
                         f"that stopped ({info.thread_id}), or set a breakpoint where thread {thread} goes on and "
                         "`continue`")
    return thread


async def held(session: DebugSession, thread: int) -> bool | None:
    """Whether the adapter holds `thread` at this stop, stopped at a line of code, where the profile can tell
    (`step_ready_check`): a thread blocked inside a native call goes on running there. None where it cannot."""
    info = session.require_paused()
    check = session.profile.stops.step_ready_check
    if thread == info.thread_id:
        return True
    if check is None:
        return None
    body, _ = await session.own.evaluate(check.format(thread=int(thread)), await focused_frame_id(session))
    return {"True": True, "False": False}.get(str(body.get("result")))


@dataclass(frozen=True)
class StepIn:
    """Before a `step in` where the adapter passes over library code: the frame it starts from, and the calls
    the adapter lists there as not yet made (pydevd lists those of the rest of the function, not of the line)."""

    frame: int
    calls: tuple[str, ...]


async def step_in(session: DebugSession, thread_id: int | None) -> StepIn | None:
    """Where library code is passed over (debugpy with justMyCode) and the adapter lists a frame's calls
    (`stepInTargets`): what a `step in` from the current stop could enter."""
    if not (session.passes_over_library and session.capabilities.get("supportsStepInTargetsRequest")):
        return None
    thread = session.thread(thread_id)
    top = session.frames.top_of(thread)
    with contextlib.suppress(Failure):
        if top is None:
            top = (await session.stack(thread))[0].id
        calls = await _calls(session, top)
        return StepIn(top, calls) if calls else None
    return None


async def passed_over(session: DebugSession, before: StepIn, ctx: Context) -> tuple[str, ...]:
    """The calls a `step in` made without entering them: it ended in the frame it started from, and the
    adapter no longer lists them as to come."""
    if ctx.state != "paused" or not ctx.frames or ctx.frames[0].id != before.frame:
        return ()
    with contextlib.suppress(Failure):
        left = list(await _calls(session, before.frame))
        made = []
        for call in before.calls:
            if call in left:
                left.remove(call)
            else:
                made.append(call)
        return tuple(made)
    return ()


async def _calls(session: DebugSession, frame: int) -> tuple[str, ...]:
    targets = (await session.request("stepInTargets", {"frameId": frame})).get("targets") or []
    return tuple(str(t["label"]) for t in targets if t.get("label"))


async def entered_sourceless(session: DebugSession, thread_id: int | None) -> str | None:
    """The function a `step in` just stopped in, where that is code whose source is not here (glibc's
    assembly, whose line table gdb reads): None where its source is (the program's own code, a C++ header)."""
    if not session.profile.stops.step_in_leaves_sourceless or session.state != "paused" or session.stop_info is None \
            or session.stop_info.reason != "step":
        return None
    with contextlib.suppress(Failure, LookupError, TypeError, ValueError):
        top = to_frame((await session.stack(session.thread(thread_id)))[0])
        return None if has_source(top) else top.function or "?"
    return None


def frame_place(session: DebugSession, frame_id: int) -> int | None:
    """Where a frame handed out at this stop is in its thread's stack (0: the innermost), if known."""
    known = session.frames.get(frame_id)
    if known is not None:
        return known[1]
    info = session.require_paused()
    view = _stop_view(session, info)
    return view.focus_index if view is not None and view.focus is not None and view.focus.id == frame_id else None


def focus_line(session: DebugSession) -> int | None:
    """The line of the frame the current stop's context focused on."""
    view = _stop_view(session, session.require_paused())
    return view.focus.line if view is not None and view.focus is not None else None


async def top_line(session: DebugSession, thread_id: int) -> int | None:
    """The line the paused thread's innermost frame is at."""
    with contextlib.suppress(Failure, LookupError, TypeError, ValueError):
        return to_frame((await session.stack(thread_id))[0]).line
    return None


def frames_above_focus(session: DebugSession, thread_id: int | None) -> int:
    """How many frames of library code sit above the frame the current stop's context focused on."""
    info = session.require_paused()
    view = _stop_view(session, info)
    return view.focus_index if view is not None and thread_id in (None, info.thread_id) else 0


def _stop_view(session: DebugSession, info: StopInfo) -> FrameView | None:
    """The view recorded at the current stop, of the thread that stopped."""
    view = session.recorder.last_view
    return view if view is not None and view.thread_id == info.thread_id else None


def _at_temporary(session: DebugSession, ctx: Context) -> bool:
    """Adapters do not always name the breakpoint they hit (debugpy's function ones)."""
    here = ctx.location
    if here is None or ctx.reason not in ("breakpoint", "function breakpoint"):
        return False
    return any(bp.temporary and ((bp.file == here.file and bp.line == here.line) or
                                 (bp.function and bp.function == here.function))
               for bp in session.breakpoints.all())
