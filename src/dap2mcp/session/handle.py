"""One session as a call names it: the handle the server looks up once from the call's `sessionId`, and the
verbs an agent's call runs on that session (run, step, pause and wait; breakpoints; reading and changing state;
memory; snapshots). What spans sessions (starting, restarting and ending them) is the `Debugger`'s.

Each verb returns plain data or a `Context`; the server only parses input and shapes output.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import os
import stat
from pathlib import Path
from typing import Any, Literal

from ..adapters.build import cache_dir
from ..dap import AdapterRefused, AdapterTimedOut, bodies
from ..errors import DebugError, ErrorCode, Failure
from ..snapshots import Snapshot, codec, diff
from ..snapshots.store import SnapshotStore, new_id
from . import answer, hints
from .breakpoints import watches
from .breakpoints.specs import BreakpointChange, BreakpointSpec, Location
from .family import Family
from .memory import contents
from .memory.disassembly import instructions
from .models import BreakpointView, Context, relative
from .program.checks import refuse_on_core
from .session import DebugSession
from .sessions import Sessions
from .stop import assign, expand, paused, preview, reverse, threads
from .stop.console import console_command
from .stop.threads import THREAD_FRAMES

DEFAULT_WAIT = 30.0
EVALUATE_TIMEOUT = 10.0
INTERRUPT_GRACE = 5.0
"""How long an interrupted evaluation may take to end: the interrupt lands at the thread's next Python
instruction, and a thread inside one long native call gets it only when the call returns."""
PAUSE_IN_OWN_CODE = 0.5
"""How long a pause may take to land in the program's own code before library code is made a place to stop too."""
CORE_EVALUATION = ("the program is a core file: an expression that calls a function (or writes) needs a running "
                   "program; read the values it would read instead")
STEP_IN_LEAVES = 4
"""How many calls into code without source one `step in` steps back out of (a line calling strlen, then memcpy)."""
MEMORY_BYTES = contents.MAX_BYTES
"""The most bytes `memory` reads at once."""
MAX_EVALUATE_DEPTH = expand.MAX_DEPTH
"""The most levels `evaluate` expands."""


class SessionHandle:
    def __init__(self, session: DebugSession, sessions: Sessions, family: Family) -> None:
        """`sessions` and `family`: the debugger's, for what a call on one session reaches in the others (a stop in
        a child process answers a `continue` of its parent; a breakpoint is set in every process of the program)."""
        self.session = session
        self.sessions = sessions
        self.family = family

    @property
    def id(self) -> str:
        return self.session.id

    @property
    def files_from(self) -> str | None:
        """Below this directory, results name files relative to it (`Target.files_from`)."""
        return self.session.target.files_from

    def breakpoints_kept(self) -> int:
        """How many breakpoints the session holds (temporary ones left out)."""
        return len(self.session.breakpoints.views())

    def _running(self, what: str) -> DebugSession:
        """The session, where its program can run: not a core file's (`refuse_on_core`)."""
        refuse_on_core(self.session.target, what)
        return self.session

    async def continue_(self, thread_id: int | None, to: Location | None, timeout: float) -> Context:
        session = self._running("continue")
        temp = await session.add_breakpoint(BreakpointSpec.at(to), temporary=True) if to else None
        try:
            sharing = session.breakpoints.sharing(temp) if temp is not None else []
            # an agent's breakpoint on the function answers for the temporary one (lldb-dap keeps one per
            # name), but only a bound one: a pending one would let the program run to its end
            if temp is not None and temp.function and not temp.verified and not any(bp.verified for bp in sharing):
                held = f"; breakpoint {sharing[0].id} on it is pending too, and stops there if it binds: " \
                       "`continue` without `to`" if sharing else \
                       ". For a function of a library loaded later, set a `breakpoint` on it and `continue`"
                why = temp.message or next((bp.message for bp in sharing if bp.message), None) or "not bound"
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"`to` function '{temp.function}' is unknown to the "
                                 f"adapter ({why}); the program did not move{held}")
            since = await session.resume(thread_id)
            stopped, finished = await self.family.wait(session, since, timeout)
            if stopped is not session:  # a child process stopped first; this one runs on
                return answer.elsewhere(await answer.result(self.sessions, stopped, timed_out=False), session)
            ctx = await answer.result(self.sessions, session, timed_out=not finished,
                                     again="`continue` with the same `to`" if to else None)
            if to and ctx.state == "terminated" and ctx.hint is None:
                ctx.hint = hints.TO_NOT_REACHED
            return ctx
        finally:
            if temp is not None and session.breakpoints.discard(temp) and session.state != "terminated":
                await session.remove_breakpoints([temp])

    async def back(self, how: Literal["back", "backOut", "continue"], thread_id: int | None,
                   timeout: float) -> Context:
        """Back through the recording: a line (`step {mode: "back"}`), out to the caller's line (`backOut`), or to
        the previous stop or the recording's start (`continue {reverse: true}`); a watch stops it at the last write."""
        session = self._running("go back")
        reverse.refuse(session, how)
        thread = await session.known_thread(thread_id)
        try:
            since = await session.move_back(how, thread, await paused.focused_frame_id(session))
        except AdapterRefused as exc:  # rdbg: 'cancelled' at the recording's first line
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"{session.profile.name} did not go back ({exc.message}): "
                             "this is the first line recorded") from exc
        finished = await session.wait_for_stop(since, timeout)
        ctx = await answer.result(self.sessions, session, timed_out=not finished, look_for_children=False)
        reverse.written_backwards(ctx)
        return ctx

    async def record(self, on: bool, limit: int | None) -> dict[str, Any]:
        """Start or stop recording the program at this stop (see `stop.reverse`)."""
        return await reverse.record(self._running("record"), on, limit)

    async def step(self, mode: Literal["over", "in", "out"], thread_id: int | None, timeout: float) -> Context:
        """A step from the frame the stop's context focused on: where a pause or a crash is shown at the
        program's own frame below library code, the frames above it are stepped out of first. A `step out`
        from there ends once they are: back in the program's own frame, at the return from the library
        call its line makes (stepping out of that frame too would run the program's `main` to its end)."""
        session = self._running("step")
        deadline = asyncio.get_running_loop().time() + timeout

        def left() -> float:
            return max(0.0, deadline - asyncio.get_running_loop().time())

        above = paused.frames_above_focus(session, thread_id)
        focused_line = paused.focus_line(session) if above else None
        thread = await paused.steppable_thread(session, thread_id)
        for _ in range(above):
            since = await session.step("out", thread)
            finished = await session.wait_for_stop(since, left())
            if not _stepped(session, finished):  # a breakpoint on the way out, the end: shown as it is
                return await answer.result(self.sessions, session, timed_out=not finished, look_for_children=not finished)
        if above and mode == "over" and (now := await paused.top_line(session, thread)) is not None \
                and now != focused_line:
            # out of the library, already past the focused line (Delve returns from time.Sleep to the next line's
            # first instruction): stepping over from there too would pass over that line
            return await answer.result(self.sessions, session, timed_out=False, look_for_children=False)
        if mode == "out" and above:
            ctx = await answer.result(self.sessions, session, timed_out=False, look_for_children=False)
            ctx.hint = ctx.hint or hints.OUT_OF_LIBRARY
            return ctx
        watch = await paused.step_in(session, thread) if mode == "in" else None
        since = await session.step(mode, thread)
        finished = await session.wait_for_stop(since, left())
        left_out: list[str] = []  # calls into code without source here, stepped out of as lldb would not enter them
        while mode == "in" and finished and len(left_out) < STEP_IN_LEAVES \
                and (entered := await paused.entered_sourceless(session, thread)):
            left_out.append(entered)
            for command in ("out", "in"):  # back to the calling line, then on as the step would have gone
                since = await session.step(command, thread)
                finished = await session.wait_for_stop(since, left())
                if not _stepped(session, finished):
                    break
        ctx = await answer.result(self.sessions, session, timed_out=not finished, look_for_children=not finished)
        if watch is not None and ctx.hint is None and (calls := await paused.passed_over(session, watch, ctx)):
            ctx.hint = hints.passed_over(calls)
        if left_out and ctx.hint is None:
            ctx.hint = hints.passed_over_sourceless(tuple(left_out))
        return ctx

    async def wait(self, timeout: float) -> Context:
        """The next stop, without resuming: for a program already running (after a timed-out call)."""
        session = self.session
        if session.state == "running" or self.sessions.unshown_stop(session) is not None:
            stopped, finished = await self.family.wait(session, session.stop_count, timeout)
            ctx = await answer.result(self.sessions, stopped, timed_out=not finished, again="`wait`")
            return answer.elsewhere(ctx, session) if stopped is not session else ctx
        ctx = await answer.result(self.sessions, session, timed_out=False)
        if ctx.state == "paused":
            ctx.hint = hints.ALREADY_PAUSED
        return ctx

    def output(self, offset: int, limit: int) -> dict[str, Any]:
        return self.session.output.page(offset, limit)

    async def pause(self, thread_id: int | None, timeout: float) -> Context:
        session = self._running("pause")
        deadline = asyncio.get_running_loop().time() + timeout

        def left() -> float:
            return max(0.0, deadline - asyncio.get_running_loop().time())

        since = await session.pause(thread_id)
        finished = await session.wait_for_stop(since, min(timeout, PAUSE_IN_OWN_CODE))
        if not finished and left() > 0 and session.state == "running" and (stuck := await threads.all_blocked(session)):
            ctx = await answer.result(self.sessions, session, timed_out=True)  # waiting on could not help: say so now
            if ctx.state == "running":
                threads.say_blocked(session, ctx, stuck)
            return ctx
        if not finished and left() > 0 and session.state == "running" and session.passes_over_library:
            finished = await session.pause_in_library(since, left())
        if not finished:
            finished = await session.wait_for_stop(since, left())
        ctx = await answer.result(self.sessions, session, timed_out=not finished)
        if not finished and ctx.state == "running":  # asking again would not help: the pause is still pending
            ctx.hint = hints.PAUSE_PENDING + (hints.PAUSE_IN_LIBRARY if session.passes_over_library else "")
        return ctx

    # -- breakpoints -------------------------------------------------------------------------

    # A breakpoint is the program's: set, changed or cleared in one of its processes' sessions, it is in all
    # of them (each child's session started with its parent's), the others' answers aside.

    async def add_breakpoint(self, spec: BreakpointSpec) -> BreakpointView:
        session = self._running("stop at a breakpoint")
        resolve = None
        if spec.watch and session.state == "paused":
            frame, thread = await paused.focused_frame_id(session), session.require_paused().thread_id
            resolve = functools.partial(watches.resolve, session, frame=frame, thread=thread)
        view = (await session.add_breakpoint(spec, resolve=resolve)).view()
        for other in self.sessions.others_running(session) if not spec.watch else ():  # a watch is of one process's memory
            with contextlib.suppress(Failure):
                await other.add_breakpoint(spec, bp_id=view.id)
        return view

    async def update_breakpoint(self, bp_id: int, changes: BreakpointChange) -> BreakpointView:
        session = self._running("stop at a breakpoint")
        view = (await session.update_breakpoint(bp_id, changes)).view()
        for other in self.sessions.others_running(session):
            with contextlib.suppress(Failure):
                await other.update_breakpoint(bp_id, changes)
        return view

    async def clear_breakpoints(self, file: str | None, ids: list[int] | None, all_: bool) -> list[int]:
        session = self.session
        removed = await _clear(session, file, ids, all_)
        for other in self.sessions.others_running(session):
            with contextlib.suppress(Failure):
                await _clear(other, file, [i for i in ids or [] if i in {bp.id for bp in other.breakpoints.all()}],
                             all_)
        return removed

    # -- inspection and change ---------------------------------------------------------------

    async def context(self, thread_id: int | None, frame_id: int | None, max_frames: int,
                      scopes: list[str] | None = None, threads_from: int = 0,
                      library_frames: bool = False) -> Context:
        session = self.session
        if session.state == "paused":
            self.sessions.shown(session)  # no call of its program returns it again
        if frame_id is not None and session.state == "paused":
            session.check_frame(frame_id)  # an id of an earlier stop may name nothing, or another frame
        if thread_id is not None and frame_id is None and (stack := await threads.not_held(session, thread_id, max_frames)):
            return threads.thread_context(session, stack)
        return await paused.context(session, thread_id=thread_id, frame_id=frame_id, max_frames=max_frames,
                                    scopes=frozenset(name.lower() for name in scopes or ()), threads_from=threads_from,
                                    library_frames=library_frames)

    async def evaluate(self, expression: str, frame_id: int | None, timeout: float = EVALUATE_TIMEOUT,
                       depth: int = 0) -> dict[str, Any]:
        """`depth`: levels of the value's members to read besides its text (see `session.stop.expand`)."""
        session = self.session
        frame = session.check_frame(frame_id) if frame_id is not None else await paused.focused_frame_id(session)
        await session.recorder.settle()
        session.recorder.state_changed()
        mixed = session.all_in.from_elsewhere()  # then it may write while the evaluation prints, too
        before, _ = await session.all_in.stopped(frame)  # the program's, not to be taken for the evaluation's
        if console_command(session.profile, expression) is not None and session.profile.console.console_prints:
            # what it printed is its value
            printed = await session.own.console_text(expression, frame, session.limits.value_chars * 20)
            return {"value": printed.text.strip("\r\n"), "type": None, "truncated": printed.truncated or None}
        interrupts = await session.own.limit(frame, timeout)
        start = session.output.size
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            body = await session.request("evaluate", {"expression": expression, "frameId": frame,
                                                       "context": session.profile.evaluation.evaluate_context},
                                         timeout=timeout + INTERRUPT_GRACE if interrupts else timeout, holds=expression)
        except Failure as exc:
            if isinstance(exc, AdapterRefused):  # answered, interrupted or not: free for the next request
                await _standing_limit(session, frame, timeout)
            if isinstance(exc, AdapterRefused):  # lldb's words keep Rust's legacy escapes (`_$u7b$$u7b$closure`)
                exc = AdapterRefused(exc.command, session.profile.readable_text(exc.message))
            failure = _evaluation_failure(exc, session.profile.name, timeout, interrupts,
                                          ran_out=loop.time() - began >= timeout)
            raise (failure.said_more(CORE_EVALUATION) if session.target.mode == "core" else failure) from exc
        await _standing_limit(session, frame, timeout)
        if (failed := body.get("result") in session.profile.evaluation.failed_evaluations) or not body.get("result"):
            why = await _why_not(session, expression, frame)
            if failed or why:
                failure = DebugError(ErrorCode.ADAPTER_ERROR, f"{session.profile.name} could not evaluate "
                                     f"'{expression}' in frame {frame}: "
                                     f"{why or body['result'] + ' (an unknown name, or not an expression)'}")
                raise failure.said_more(CORE_EVALUATION) if session.target.mode == "core" else failure
        result = assign.value_of(await _previewed(session, expression, body, frame), body, session)
        result.update(await _expanded(session, expression, body, depth))
        printed = await session.all_in.printed(frame)
        out = session.output.take_from(start, session.limits.output_chars)
        if out.text:
            result["output"] = out.text
            result["outputTruncated"] = out.truncated or None
        elif not result["value"] and not result["type"] and (held := session.profile.output_held(session.target)):
            result["hint"] = held  # a statement or a call that returned nothing, `print(...)`, printed nothing
        if out.text or not printed:
            result["outputIncomplete"] = not (before and printed) or mixed or None
        return result

    async def set_variable(self, name: str, value: str, frame_id: int | None) -> dict[str, Any]:
        session = self._running("take a changed value")
        frame = session.check_frame(frame_id) if frame_id is not None else await paused.focused_frame_id(session)
        if session.profile.evaluation.sets_in_top_frame_only and (place := paused.frame_place(session, frame)):
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"{session.profile.name} sets a variable in the innermost frame "
                             f"only, whatever frame is named (go-delve/delve#3171), and frame {frame} is {place} "
                             "frame(s) below it: `step out` until it is the innermost, then set it; `evaluate` reads "
                             "it where it is")
        await session.recorder.settle()
        session.recorder.state_changed()
        return await assign.set_variable(session, name, value, frame)

    async def info(self, kind: Literal["sources", "modules", "threads"],
                   max_frames: int = THREAD_FRAMES, offset: int = 0, limit: int = 200) -> dict[str, Any]:
        session = self.session
        if kind == "threads":
            stacks, total = await threads.listing(session, max_frames)
            base = {"base": session.target.files_from}
            listed = stacks[offset:offset + limit]
            more = offset + len(listed) < len(stacks)
            return {"type": kind, "items": [s.model_dump(exclude_none=True, context=base) for s in listed],
                    "total": total, "truncated": more or total > len(stacks),
                    **({"nextOffset": offset + len(listed)} if more else {})}
        if kind == "sources":
            if not session.capabilities.get("supportsLoadedSourcesRequest"):
                raise DebugError(ErrorCode.NOT_SUPPORTED,
                                 f"{session.profile.name} does not list loaded sources (no supportsLoadedSourcesRequest)")
            body = await session.request("loadedSources")
            items = [{"name": s.get("name"), "path": s.get("path")} for s in body.get("sources") or []]
        else:
            if not session.capabilities.get("supportsModulesRequest"):
                raise DebugError(ErrorCode.NOT_SUPPORTED,
                                 f"{session.profile.name} does not list modules (no supportsModulesRequest)")
            body = await session.request("modules", {"startModule": 0, "moduleCount": 0})
            items = [{k: m[k] for k in ("id", "name", "path", "version", "symbolStatus") if m.get(k) is not None}
                     for m in body.get("modules") or []]
        items.sort(key=lambda item: session.library_file(item.get("path")))  # the program's own first, in order
        page = items[offset:offset + limit]
        for item in page:  # named as in every other result
            if isinstance(item.get("path"), str):
                item["path"] = relative(item["path"], session.target.files_from)
        more = offset + len(page) < len(items)
        return {"type": kind, "items": page, "total": len(items), "truncated": more,
                **({"nextOffset": offset + len(page)} if more else {})}

    async def disassemble(self, memory_reference: str | None, offset: int, count: int) -> dict[str, Any]:
        session = self.session
        if not session.capabilities.get("supportsDisassembleRequest"):
            raise DebugError(ErrorCode.NOT_SUPPORTED,
                             f"{session.profile.name} does not support disassembly (no supportsDisassembleRequest)")
        info = session.require_paused()
        if memory_reference is None:
            frames = await session.stack(session.thread(info.thread_id))
            memory_reference = frames[0].instructionPointerReference if frames else None
            if not memory_reference:
                raise DebugError(ErrorCode.NOT_SUPPORTED, f"{session.profile.name} gives no instruction address here")
        found = await instructions(session, memory_reference, offset, count)
        return {"instructions": [
            {k: i[k] for k in ("address", "instructionBytes", "instruction", "symbol", "line") if i.get(k) is not None}
            for i in found]}

    async def memory(self, reference: str | None, expression: str | None, offset: int, count: int,
                     frame_id: int | None) -> dict[str, Any]:
        session = self.session
        session.require_paused()
        frame = session.check_frame(frame_id) if frame_id is not None else await paused.focused_frame_id(session)
        return await contents.read(session, reference, expression, offset, count, frame)

    # -- snapshots ---------------------------------------------------------------------------

    async def save_core(self, path: str | None) -> dict[str, Any]:
        """A core file of the paused program, written by the debugger (gdb's `gcore`), to read later with mode
        `core`: where it lies and its size."""
        session = self.session
        profile = session.profile
        if session.target.mode == "core":
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"the program is a core file already ({session.target.core})")
        if profile.console.save_core is None:
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"{profile.name} cannot save a core: "
                             f"{profile.console.save_core_instead}")
        session.require_paused()
        pid = session.run.process.get("systemProcessId") or session.target.process_id
        out = Path(path).expanduser().resolve() if path else \
            cache_dir() / "cores" / f"{os.path.basename(session.target.program or 'program')}.{pid or 0}.core"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.unlink(missing_ok=True)
        frame = await paused.focused_frame_id(session)
        said = await session.request("evaluate", {"expression": profile.console.save_core.format(path=out),
                                                   "frameId": frame, "context": "repl"}, timeout=120)
        if not out.is_file():
            raise DebugError(ErrorCode.ADAPTER_ERROR, f"{profile.name} wrote no core to {out}: "
                             f"{said.get('result') or 'it said nothing'}")
        return {"path": str(out), "bytes": out.stat().st_size}

    async def snapshot_create(self, label: str | None, thread_id: int | None, frame_index: int,
                              depth: int) -> tuple[Snapshot, str | None]:
        session = self.session
        if session.state == "terminated":
            session.require_paused()  # says how the program ended
        if session.state != "paused" or session.stop_info is None:
            raise DebugError(ErrorCode.NOT_PAUSED,
                             "Cannot create snapshot while process is running. Pause at a breakpoint first.")
        cycle = session.stop_count
        try:
            return await session.recorder.create(cycle=cycle, thread_id=await session.known_thread(thread_id),
                                                 frame_index=frame_index, depth=depth, label=label)
        except Failure as exc:
            if session.state == "terminated" or not self.sessions.holds(session):
                raise DebugError(ErrorCode.TERMINATED, "the session ended while the snapshot was being taken; "
                                 "nothing was saved") from exc
            if isinstance(exc, AdapterRefused) and (session.state != "paused" or session.stop_count != cycle):
                raise DebugError(ErrorCode.NOT_PAUSED, "the program moved on while the snapshot was being taken; "
                                 "nothing was saved") from exc
            raise

    async def _snapshots(self) -> SnapshotStore:
        """The store, once the current stop is recorded: `@t0` is always the stop the program is at."""
        recorder = self.session.recorder
        await recorder.settle()
        return recorder.store

    async def snapshot_diff(self, ref_a: str, ref_b: str, form: Literal["variables", "pact"],
                            under: str | None = None) -> tuple[dict[str, Any], str | None]:
        """The whole diff, and a warning where the two cannot be compared whole; `under`: only what lies at that
        path or below it. The caller pages it (`diff.page`)."""
        store = await self._snapshots()
        old, new = self._snapshot(store, ref_a), self._snapshot(store, ref_b)
        delta = diff.compare(old, new, under)
        body = diff.pact(delta) if form == "pact" else diff.variables(old, new, delta)
        warnings = [diff.depth_warning(old, new), diff.absent_warning(old, new, under)]
        return body, "; ".join(w for w in warnings if w) or None

    def _snapshot(self, store: SnapshotStore, ref: str) -> Snapshot:
        """`ref` in `store`, or a snapshot id another session saved or recorded (the broken and the fixed
        version compared); a stop address (`@t0`, `@c3`) is the session's own."""
        try:
            return store.get(ref)
        except DebugError as exc:
            if exc.code != ErrorCode.SNAPSHOT_NOT_FOUND or ref.strip().startswith("@"):
                raise
            for other in self.sessions:
                with contextlib.suppress(DebugError):
                    return other.recorder.store.get(ref)
            raise

    async def snapshot_list(self) -> tuple[list[Snapshot], dict[str, int] | None]:
        store = await self._snapshots()
        return list(store.saved.values()), store.kept()

    async def snapshot_delete(self, ref: str | None) -> tuple[str, int]:
        return (await self._snapshots()).delete(ref)

    async def snapshot_export(self, ref: str, path: str | None, offset: int, limit: int) -> dict[str, Any]:
        """The snapshot's canonical text written whole to `path` and answered with its size and digest only (an
        agent that asked for a file need not read it again), or else answered whole when it fits in `limit`
        characters, a page at a time from `offset` when not: the text is byte-stable, so pages join up."""
        snapshot = (await self._snapshots()).get(ref)
        data = codec.export(snapshot)
        out: dict[str, Any] = {"snapshotId": snapshot.id}
        if path is not None:
            target = self._path(path)
            encoded = data.encode("utf-8")
            try:
                await asyncio.to_thread(target.write_bytes, encoded)
            except OSError as exc:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot write {target}: {exc.strerror or exc}") from None
            return {**out, "path": path, "bytes": len(encoded), "sha256": hashlib.sha256(encoded).hexdigest()}
        if offset == 0 and len(data) <= limit:
            return {**out, "data": data}
        begin = min(offset, len(data))
        page = data[begin:begin + limit]
        return {**out, "data": page, "offset": begin, "nextOffset": begin + len(page), "end": len(data),
                "truncated": begin + len(page) < len(data) or None}

    def _path(self, path: str) -> Path:
        """A user's file path, relative to the program's directory; NUL bytes and the like are refused."""
        if "\x00" in path:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "a path cannot contain NUL characters")
        return Path(self.session.target.cwd or ".") / Path(path).expanduser()

    async def snapshot_import(self, data: str | None, path: str | None) -> tuple[Snapshot, str | None]:
        session = self.session
        if (data is None) == (path is None):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "give either data or path")
        if path is not None:
            data = await asyncio.to_thread(_read_bounded, self._path(path), codec.MAX_IMPORT_BYTES)
        store = session.recorder.store
        store.check_room()
        try:
            snapshot = codec.parse(data or "", new_id(), session.recorder.capture_limits.nodes)
        except codec.SnapshotDataError as exc:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot import snapshot: {exc}") from None
        return snapshot, store.save(snapshot)


async def _clear(session: DebugSession, file: str | None, ids: list[int] | None, all_: bool) -> list[int]:
    registry = session.breakpoints
    if all_:
        removed = registry.take_all()
    else:
        removed = registry.take(ids) if ids else []
        if file:
            removed += registry.take_file(file, session.target.cwd)
    await session.remove_breakpoints(removed)
    return [bp.id for bp in removed]


def _stepped(session: DebugSession, finished: bool) -> bool:
    """The step a loop of steps took ended as a step: not the timeout, the program's end or another stop."""
    return finished and session.state == "paused" and session.stop_info is not None \
        and session.stop_info.reason == "step"


async def _standing_limit(session: DebugSession, frame: int, timeout: float) -> None:
    """The limit stays set in the debuggee, where it bounds dap2mcp's own evaluations too (a snapshot's
    capture, the checks before a step): an agent's short `timeout` is not left to cut those short."""
    if timeout != EVALUATE_TIMEOUT:
        with contextlib.suppress(Failure):
            await session.own.limit(frame, EVALUATE_TIMEOUT)


def _evaluation_failure(exc: Failure, adapter: str, timeout: float, interrupts: bool, ran_out: bool) -> Failure:
    """What an `evaluate` that failed tells the agent: above all, whether it ran out of time and what became
    of the evaluation then."""
    if isinstance(exc, AdapterTimedOut) and interrupts:
        return DebugError(ErrorCode.TIMEOUT, f"the evaluation ran past its timeout of {timeout:g}s, and {adapter} "
                          f"could not interrupt it within {INTERRUPT_GRACE:g}s more (a thread inside a long native "
                          "call takes the interrupt only when the call returns): it still runs in the program, "
                          "and the adapter answers nothing else until it ends; `stop` or `restart` end it")
    if isinstance(exc, AdapterTimedOut):
        return DebugError(ErrorCode.TIMEOUT, f"the evaluation did not finish within its timeout of {timeout:g}s; "
                          f"{adapter} cannot interrupt an evaluation (NOT_SUPPORTED here), so it may still run in the "
                          "program and hold the adapter's next answers (calls that would wait behind it are refused "
                          "at once, saying so, until it ends); `stop` or `restart` the program if it does not come "
                          "back, and evaluate with a larger `timeout` if it only needs longer")
    if interrupts and ran_out and "KeyboardInterrupt" in exc.message:
        return DebugError(ErrorCode.TIMEOUT, f"the evaluation ran past its timeout of {timeout:g}s and was "
                          f"interrupted ({adapter} raised KeyboardInterrupt in the evaluating thread); the program is "
                          "still paused where it was, and whatever the expression changed before that stays changed. "
                          "Evaluate with a larger `timeout` if it only needs longer")
    return exc


def _read_bounded(source: Path, limit: int) -> str:
    """A regular file's text, refused past `limit` bytes; devices and pipes are refused, not read forever."""
    try:
        if not stat.S_ISREG(source.stat().st_mode):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{source} is not a regular file")
        with source.open("rb") as handle:
            raw = handle.read(limit + 1)
        if len(raw) > limit:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{source} is larger than a snapshot may be "
                             f"({limit // (1024 * 1024)} MiB)")
        return raw.decode("utf-8")
    except FileNotFoundError:
        raise DebugError(ErrorCode.FILE_NOT_FOUND, f"no such file: {source}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot read {source}: {exc}") from None


async def _why_not(session: DebugSession, expression: str, frame: int) -> str | None:
    """The debugger's own reason an expression failed or gave no value (see `explain_failure`), if it gives one."""
    explain = session.profile.evaluation.explain_failure
    if explain is None:
        return None
    quoted = expression.replace("\\", "\\\\").replace('"', '\\"')
    return (await session.own.evaluate(explain.format(expression=quoted), frame, "repl"))[1]


async def _expanded(session: DebugSession, expression: str, body: dict[str, Any], depth: int) -> dict[str, Any]:
    """An evaluation's members `depth` levels down (`children`), and the parts its answer still leaves out with
    how to see them (`leftOut`, `expand`): a value's text alone cut nested parts without a word (issue 34 point 15)."""
    found = await expand.levels(session, _as_variable(expression, body), depth, session.profile.values, session.profile.evaluation.hidden_variables,
                                session.limits)
    out: dict[str, Any] = {"children": found.children}
    if found.left_out:
        out["leftOut"] = found.left_out[:expand.LEFT_OUT]
        out["leftOutTotal"] = len(found.left_out) if len(found.left_out) > expand.LEFT_OUT else None
        out["expand"] = expand.how_to_expand(expression, depth, found)
    return out


async def _previewed(session: DebugSession, expression: str, body: dict[str, Any], frame: int) -> str:
    """An evaluation's value, its first level shown where the adapter's text hides it (see `session.stop.preview`)."""
    raw = _as_variable(expression, body)
    known = session.frames.get(frame)
    shown = (await preview.preview(session, [raw], session.profile.values,
                                   preview.Place(*known) if known is not None else None)).get(id(raw))
    return shown.text if shown is not None else raw.value


def _as_variable(expression: str, body: dict[str, Any]) -> bodies.Variable:
    """An evaluation's answer shaped as a variable named by its expression, as previews and expansions read one."""
    return bodies.Variable.read({"name": expression, "value": body.get("result", ""), "type": body.get("type"),
                                 "variablesReference": body.get("variablesReference") or 0,
                                 "evaluateName": expression})
