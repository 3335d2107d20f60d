"""The debugger an MCP server holds: the sessions running (`Sessions`), and every operation a tool offers.

Each method returns plain data or a `Context`; the server only parses input and shapes output.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import os
import stat
import weakref
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Literal

from .. import adapters
from ..adapters import Target
from ..dap import AdapterRefused, AdapterTimedOut
from ..errors import DebugError, ErrorCode, Failure
from ..snapshots import Snapshot, codec, diff
from ..snapshots.store import SnapshotStore, new_id
from . import documents, hints
from .breakpoints import watches
from .breakpoints.breakpoint import Breakpoint
from .breakpoints.specs import BreakpointChange, BreakpointSpec, Location
from .family import Family
from .memory import contents
from .memory.disassembly import instructions
from .models import BreakpointView, Context, InterpreterView, Output, relative
from .program import children, ending, testing
from .program.checks import check_breakpoints, check_path_mappings, check_start
from .program.startup import injections_finished
from .session import DebugSession
from .sessions import Sessions
from .stop import assign, expand, paused, preview, threads
from .stop.console import console_command
from .stop.inspect import PREVIEW
from .stop.threads import THREAD_FRAMES

DEFAULT_WAIT = 30.0
EVALUATE_TIMEOUT = 10.0
INTERRUPT_GRACE = 5.0
"""How long an interrupted evaluation may take to end: the interrupt lands at the thread's next Python
instruction, and a thread inside one long native call gets it only when the call returns."""
PAUSE_IN_OWN_CODE = 0.5
"""How long a pause may take to land in the program's own code before library code is made a place to stop too."""
OUTPUT_SETTLES = 1.0
"""How long a stop's answer waits for the output the program wrote before it stopped (see
`OutputBuffer.settle`); past that the answer says its output is `incomplete`."""
MARKS_BACK = 3.0
"""How long an evaluation's answer waits for the marks written after it (see marks.py): output known to be
still on its way is worth a longer wait than a pause that may be its end."""
PROGRAM_ANNOUNCED_WITHIN = 5.0
"""How long `debug` waits for the program's own session, where the launcher's adapter announces it as a child
(js-debug attaching to the Node process it started): it comes within a second once Node runs."""
TEST_END_CHARS = 4000
"""How much of the end of a test run's output is read for the runner's word that no test ran."""

STEP_IN_LEAVES = 4
"""How many calls into code without source one `step in` steps back out of (a line calling strlen, then memcpy)."""

DOCUMENTS = ("session", "breakpoints", "threads", "snapshots", "output")
"""The documents `document` builds: the server's resources."""

Progress = Callable[[str], Awaitable[None]]
"""Told what a slow start is doing (the server turns it into MCP progress notifications)."""

MEMORY_BYTES = contents.MAX_BYTES
"""The most bytes `memory` reads at once."""
MAX_EVALUATE_DEPTH = expand.MAX_DEPTH
"""The most levels `evaluate` expands."""


async def _quiet_progress(message: str) -> None:
    return None


class Debugger:
    def __init__(self) -> None:
        self.sessions = Sessions()
        """Every session running, by handle; only the debugger adds and removes them."""
        self._asked: dict[str, str | None] = {}
        """The adapter each session's `debug` asked for (None: chosen from the program), for its `restart`."""
        self._lifecycle: dict[str, asyncio.Lock] = {}
        """Per session: one start, restart or stop of it at a time (released before waiting for a stop)."""
        self.family = Family(self.sessions, self._wire, lambda: self.changed())
        """The child processes' sessions, and the wait for a stop anywhere in a program's sessions."""
        self._threads: weakref.WeakKeyDictionary[DebugSession, documents.ThreadList] = weakref.WeakKeyDictionary()
        """Each session's threads document cache: what a running session shows is its own last stop's threads."""
        self.notice: Callable[[dict[str, Any]], None] = lambda data: None
        """Where breakpoint and tracepoint hits go (the server forwards them to the client)."""
        self.changed: Callable[[], None] = lambda: None
        """Called when a session, or anything it shows, may have changed (the server's resources)."""

    def pick(self, session_id: str | None = None) -> DebugSession:
        """The session `session_id` names, or the current one; a clear NO_SESSION otherwise."""
        return self.sessions.pick(session_id)

    def resolve(self, session_id: str | None) -> str:
        """The handle a call is about: `session_id` checked, or the current session's."""
        return self.pick(session_id).id

    @property
    def has_session(self) -> bool:
        return self.sessions.current is not None

    def list_sessions(self) -> dict[str, Any]:
        items = self.sessions.listing()
        return {"type": "sessions", "items": items, "total": len(items), "truncated": False}

    # -- what the server's resources show ---------------------------------------------------

    async def document(self, name: str, session_id: str | None = None) -> dict[str, Any]:
        """A session (the current one by default) as the JSON document `name` (one of `DOCUMENTS`)."""
        session = self.pick(session_id)
        if name == "threads":
            return await documents.threads(session, self._thread_list(session))
        return documents.BUILDERS[name](session)

    def sessions_document(self) -> dict[str, Any]:
        """The `debugger://sessions` document: every session, the current one marked."""
        return {"sessions": self.sessions.listing()}

    def fingerprint(self, name: str, session_id: str | None = None) -> object:
        """A cheap stand-in for document `name`, asking the adapter nothing (None without the session)."""
        if name == "sessions":
            return repr(self.sessions.listing())
        take = documents.FINGERPRINTS.get(name)
        session = self.sessions.find(session_id)
        return (session.id, take(session)) if take is not None and session is not None else None

    def source(self, path: str) -> str:
        """A source file an adapter referenced, as text; others are refused (see `SourceAllowList`). Any
        session's: a file the current one never showed may be one another session stopped in."""
        sessions = [s for s in (self.sessions.current,) if s is not None] + list(self.sessions)
        if not sessions:
            raise DebugError(ErrorCode.NO_SESSION, "no debug session; start one with `debug`")
        refused: Failure | None = None
        for session in dict.fromkeys(sessions):
            try:
                return documents.source(session, path)
            except Failure as exc:
                refused = refused or exc
        assert refused is not None
        raise refused

    def _thread_list(self, session: DebugSession) -> documents.ThreadList:
        return self._threads.setdefault(session, documents.ThreadList())

    def breakpoints_kept(self, session_id: str | None = None) -> int:
        """How many breakpoints the session holds (temporary ones left out)."""
        return len(self.pick(session_id).breakpoints.views())

    def files_from(self, session_id: str | None = None) -> str | None:
        """Below this directory, results name files relative to it (`Target.files_from`)."""
        session = self.sessions.find(session_id)
        return session.target.files_from if session is not None else None

    # -- lifecycle ---------------------------------------------------------------------------

    async def debug(self, target: Target, *, adapter: str | None, breakpoints: list[BreakpointSpec],
                    timeout: float, carried: list[Breakpoint] | None = None, snapshots: list[Snapshot] | None = None,
                    replacing: DebugSession | None = None, progress: Progress = _quiet_progress) -> Context:
        """A new session beside those running, or with `replacing` (a `restart`) one under the same handle;
        `carried` and `snapshots` come from the session it replaces. `timeout` counts from the call: a build
        (mode `source`) and the start use it up first, though neither is cut short by it, but for what a Go build
        fetches over the network (`Target.fetch_within`)."""
        began = asyncio.get_running_loop().time()
        check_start(target, breakpoints)
        target = dataclasses.replace(target, fetch_within=timeout)
        session_id = replacing.id if replacing is not None else self.sessions.new_id()
        session = new_session(target, adapter, carried, snapshots, session_id=session_id)
        if target.mode == "test" and carried is None:
            breakpoints = testing.starting_breakpoints(session.profile, session.target, breakpoints)
        check_breakpoints(breakpoints, session.profile)
        check_path_mappings(target, session.profile)
        self._wire(session)
        await progress("checking the program and its runtime")
        await session.ready()
        await progress(f"starting {session.profile.name} and the program ({session.runtime})")
        try:
            async with self._lock(session_id):  # released before waiting for a stop
                if replacing is not None and not self.sessions.holds(replacing):
                    raise DebugError(ErrorCode.TERMINATED, f"another call ({replacing.ended_by or '`stop`'}) "
                                     "ended the session while `restart` was preparing the program; nothing was started")
                if replacing is not None:
                    await self._close(replacing, "`restart`", forget=False)
                    self.sessions.restarted(replacing)
                else:  # others may have started while this one was prepared
                    self.sessions.check_room()
                self.sessions.add(session)
                self._asked[session_id] = adapter
                for ended in self.sessions.forget_ended():
                    self._asked.pop(ended.id, None)
                    await ended.close()
                self.changed()
                try:
                    await session.start(breakpoints)
                except BaseException as exc:
                    if self.sessions.holds(session):
                        if carried is not None and isinstance(exc, Failure):  # e.g. a build error in Delve's launch
                            session.run.could_not_start(exc.message)
                            raise exc.said_more(hints.RESTART_AGAIN) from exc
                        self.sessions.remove(session, "it could not start")
                        self.changed()
                    raise
        except BaseException:
            if not self.sessions.holds(session):  # an adapter started early, for a session that never became one
                await session.close()
            raise
        # a launch waits for its first stop; an attach only where something can stop it: a breakpoint that
        # bound (one the adapter refused, as Delve refuses a line without a statement, never stops it)
        stoppers = session.breakpoints.all() if session.launched else [
            bp for bp in session.breakpoints.all()
            if bp.verified or (session.profile.binds_as_scripts_load and bp.kind == "line" and bp.active)]
        waits = session.state == "running" and (target.stop_on_entry or bool(stoppers)
                                                or target.launched)
        started_in = asyncio.get_running_loop().time() - began
        if waits:
            await progress("running to the first stop")
            stopped, _ = await self.family.wait(session, 0, max(0.0, timeout - started_in))
            if stopped is not session:  # a child process stopped first (js-debug: the program, see program_in_child)
                return _started(await self._result(stopped, timed_out=False), session)
        if session.state == "terminated":
            await session.let_go_of_entry()
        # the program runs in the session its launcher's adapter announces: that one is current, and answers
        # (its start is part of the program's, not cut short by `timeout`); its breakpoints are those that bind
        answering = bound_in = session
        if session.profile.program_in_child and (program := await self.family.program_of(
                session, PROGRAM_ANNOUNCED_WITHIN if session.state != "terminated" else 0.0)) is not None:
            bound_in = program
            if session.state != "terminated":
                self.sessions.make_current(program)
                answering = program
        ctx = await self._result(answering, timed_out=waits and answering.state == "running")
        if not waits and ctx.state == "running":  # attached, with nothing to stop at: nothing was waited for
            ctx.hint = hints.ATTACHED
        elif ctx.state == "running" and started_in >= timeout:
            ctx.hint = hints.started_past(started_in, timeout, ctx.hint)
        bound = {bp.id for other in self.sessions.tree(session) if other is not bound_in
                 for bp in other.breakpoints.all() if bp.verified} if self.sessions.holds(session) else set()
        ctx.breakpointNotes = [*(ctx.breakpointNotes or []), *bound_in.breakpoints.notes(bound_elsewhere=bound)] or None
        return _started(ctx, session)

    async def stop(self, signal_name: str | None = None, grace: float = 5.0,
                   session_id: str | None = None) -> dict[str, Any]:
        """With `signal_name`, the program is sent that signal and given `grace` seconds to end by itself."""
        asked = self.pick(session_id)
        session = children.launcher_of(asked)  # a program's session that its launcher's stands for
        program = next(iter(session.sharers), session)
        said = await ending.let_end(program, signal_name, grace) if signal_name is not None else None
        async with self._lock(session.id):
            if not self.sessions.holds(session):  # another call ended or replaced it meanwhile
                session = self.pick(session.id)
            await self._close(session, "`stop`")
        session = asked if asked.launcher is session else session
        out = session.output.take_new(session.limits.output_chars)
        if said is None and not session.launched and session.exit_code is None:
            said = "detached: the program was attached to, not launched, and runs on"
        return {"state": "terminated", "exitCode": session.exit_code if session.ended_by is None else None,
                "output": out.text or None, "outputTruncated": out.truncated or None, "description": said,
                "sessionId": session.id}

    async def stop_all(self, signal_name: str | None = None, grace: float = 5.0) -> list[dict[str, Any]]:
        """Every session stopped, each as `stop` answers for one, together (a signal's grace runs for all at
        once); a child process's session ends with its program's first process."""
        firsts = [s for s in self.sessions if s.parent_id is None]
        below = {s.id: [c.id for c in self.sessions.below(s)] for s in firsts}
        ended = await asyncio.gather(*(self.stop(signal_name, grace, s.id) for s in firsts), return_exceptions=True)
        answers: list[dict[str, Any]] = []
        for first, result in zip(firsts, ended, strict=True):
            answers.append(result if isinstance(result, dict) else {"sessionId": first.id, "state": "terminated"})
            answers += [{"sessionId": child, "state": "terminated",
                         "description": f"a child process of session {first.id}'s program, ended with it"}
                        for child in below[first.id]]
        return answers

    async def restart(self, args: list[str] | None, timeout: float, progress: Progress = _quiet_progress,
                      session_id: str | None = None) -> Context:
        old = children.launcher_of(self.pick(session_id))
        if old.parent_id is not None:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"session {old.id} is a child process of session "
                             f"{old.parent_id}'s program, which starts it: `restart` sessionId {old.parent_id}")
        old.recorder.hold_new()  # snapshots being taken finish and are carried; no new ones start
        await old.recorder.settle()
        try:
            return await self.debug(old.target.with_args(args), adapter=self._asked.get(old.id), breakpoints=[],
                                    timeout=timeout, carried=old.breakpoints.all(),
                                    snapshots=list(old.recorder.store.saved.values()), replacing=old,
                                    progress=progress)
        except BaseException:
            if self.sessions.holds(old):  # refused before the old session was given up: it carries on
                old.recorder.allow_new()
            raise

    async def close(self) -> None:
        """Every session ended (the server is closing)."""
        await self.family.close()
        for session in list(self.sessions):
            async with self._lock(session.id):
                await self._close(session)
        await injections_finished(10.0)  # an attach by pid still injecting (its start gave up meanwhile)

    def _lock(self, session_id: str) -> asyncio.Lock:
        return self._lifecycle.setdefault(session_id, asyncio.Lock())

    async def _close(self, session: DebugSession, by: str | None = None, *, forget: bool = True) -> None:
        """End `session`, and the sessions of the child processes below it; `forget`: its handle goes too
        (a `restart` keeps it for the session replacing it). Ending a program's first process ends its
        children (debugpy), whose sessions are let go of after it."""
        below = self.sessions.below(session) if self.sessions.holds(session) else []
        if forget and not self.sessions.remove(session, f"ended by {by}" if by else "the server closed"):
            return
        if forget:
            self._asked.pop(session.id, None)
        self.changed()
        await session.close(by)
        for child in below:
            if child.parent_id is not None and self.sessions.remove(child, f"its parent session {session.id} ended"):
                await child.close(by)
        self.changed()

    def _wire(self, session: DebugSession) -> None:
        """What a session tells the debugger: hits (announced with the session they happened in), changes
        (which also wake a wait for a stop anywhere in its tree) and its child processes."""
        session.notice = lambda data: self.notice({**data, "sessionId": session.id})
        session.changed = self._changed
        session.on_child = self.family.announced

    def _changed(self) -> None:
        self.changed()
        self.family.stir()

    # -- execution ---------------------------------------------------------------------------

    async def continue_(self, thread_id: int | None, to: Location | None, timeout: float, session_id: str | None = None) -> Context:
        session = self.pick(session_id)
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
                return self._elsewhere(await self._result(stopped, timed_out=False), session)
            ctx = await self._result(session, timed_out=not finished,
                                     again="`continue` with the same `to`" if to else None)
            if to and ctx.state == "terminated" and ctx.hint is None:
                ctx.hint = hints.TO_NOT_REACHED
            return ctx
        finally:
            if temp is not None and session.breakpoints.discard(temp) and session.state != "terminated":
                await session.remove_breakpoints([temp])

    async def step(self, mode: Literal["over", "in", "out"], thread_id: int | None, timeout: float, session_id: str | None = None) -> Context:
        """A step from the frame the stop's context focused on: where a pause or a crash is shown at the
        program's own frame below library code, the frames above it are stepped out of first. A `step out`
        from there ends once they are: back in the program's own frame, at the return from the library
        call its line makes (stepping out of that frame too would run the program's `main` to its end)."""
        session = self.pick(session_id)
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
                return await self._result(session, timed_out=not finished, look_for_children=not finished)
        if above and mode == "over" and (now := await paused.top_line(session, thread)) is not None \
                and now != focused_line:
            # out of the library, already past the focused line (Delve returns from time.Sleep to the next line's
            # first instruction): stepping over from there too would pass over that line
            return await self._result(session, timed_out=False, look_for_children=False)
        if mode == "out" and above:
            ctx = await self._result(session, timed_out=False, look_for_children=False)
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
        ctx = await self._result(session, timed_out=not finished, look_for_children=not finished)
        if watch is not None and ctx.hint is None and (calls := await paused.passed_over(session, watch, ctx)):
            ctx.hint = hints.passed_over(calls)
        if left_out and ctx.hint is None:
            ctx.hint = hints.passed_over_sourceless(tuple(left_out))
        return ctx

    async def wait(self, timeout: float, session_id: str | None = None) -> Context:
        """The next stop, without resuming: for a program already running (after a timed-out call)."""
        session = self.pick(session_id)
        if session.state == "running" or self.sessions.unshown_stop(session) is not None:
            stopped, finished = await self.family.wait(session, session.stop_count, timeout)
            ctx = await self._result(stopped, timed_out=not finished, again="`wait`")
            return self._elsewhere(ctx, session) if stopped is not session else ctx
        ctx = await self._result(session, timed_out=False)
        if ctx.state == "paused":
            ctx.hint = hints.ALREADY_PAUSED
        return ctx

    def output(self, offset: int, limit: int, session_id: str | None = None) -> dict[str, Any]:
        return self.pick(session_id).output.page(offset, limit)

    async def pause(self, thread_id: int | None, timeout: float, session_id: str | None = None) -> Context:
        session = self.pick(session_id)
        deadline = asyncio.get_running_loop().time() + timeout

        def left() -> float:
            return max(0.0, deadline - asyncio.get_running_loop().time())

        since = await session.pause(thread_id)
        finished = await session.wait_for_stop(since, min(timeout, PAUSE_IN_OWN_CODE))
        if not finished and left() > 0 and session.state == "running" and (stuck := await threads.all_blocked(session)):
            ctx = await self._result(session, timed_out=True)  # waiting on could not help: say so now
            if ctx.state == "running":
                threads.say_blocked(session, ctx, stuck)
            return ctx
        if not finished and left() > 0 and session.state == "running" and session.passes_over_library:
            finished = await session.pause_in_library(since, left())
        if not finished:
            finished = await session.wait_for_stop(since, left())
        ctx = await self._result(session, timed_out=not finished)
        if not finished and ctx.state == "running":  # asking again would not help: the pause is still pending
            ctx.hint = hints.PAUSE_PENDING + (hints.PAUSE_IN_LIBRARY if session.passes_over_library else "")
        return ctx

    async def _result(self, session: DebugSession, *, timed_out: bool, again: str | None = None,
                      look_for_children: bool = True) -> Context:
        """`look_for_children`: a scan of the process table (~2 ms), left out of each `step`."""
        _not_ended_by_another_call(session)
        await session.ended()  # an ending program's last output is still on its way
        # what the program wrote before it stopped may still be on its way (a flood is forwarded for seconds)
        complete, marked = await _all_in(session, None) if session.state == "paused" else (True, False)
        settled = session.output.size
        # the thread list costs a request per stop; `context` has it, execution results do not
        ctx = await paused.context(session, consume_output=True, with_threads=False)
        if ctx.state == "terminated":  # ended while the stop was being read (a stop with 30,000 globals takes a while)
            _not_ended_by_another_call(session)
        if not complete or (not marked and session.output.size != settled):  # more came: was it all in?
            ctx.output = (ctx.output or Output(text="")).model_copy(update={"incomplete": True})
        ctx.hint = hints.at_result(ctx, timed_out=timed_out, again=again)
        ctx.breakpointNotes = [*(ctx.breakpointNotes or []), *session.breakpoints.take_later_notes()] or None
        if ctx.state == "terminated":
            ran = testing.at_end(session.target, session.profile, ctx.exitCode, session.output.read(session.output.size - TEST_END_CHARS, TEST_END_CHARS).text)
            coming = hints.EXIT_COMING if ctx.exitCode is None and session.exit_coming and session.parent_id is None \
                else None
            ctx.hint = "; ".join(filter(None, (ctx.hint, ran, coming))) or None
        follows = session.profile.follows_children and session.target.children  # its children are sessions
        if look_for_children and not follows and ctx.state != "terminated" \
                and (found := session.processes.new_children()):
            ctx.hint = "; ".join(filter(None, (ctx.hint, hints.children(found))))
        if ctx.state == "paused":  # the session whose stop was last returned is the one a next call acts on
            self.sessions.make_current(session)
            if self.sessions.shown(session) and session.parent_id is not None:  # a child's first stop shown
                ctx.breakpointNotes = [*(ctx.breakpointNotes or []), *session.breakpoints.notes(edited=True)] or None
        elif ctx.state == "terminated" and session.parent_id is not None and session.launcher is None \
                and self.sessions.holds(parent := self.pick(session.parent_id)):
            self.sessions.make_current(parent)  # not left without one: the program goes on in its parent
            ended = hints.child_ended(session.id, parent.id, parent.state, exit_known=ctx.exitCode is not None,
                                      exit_coming=session.exit_coming,
                                      reloader=session.profile.reloader(session.target, ctx.exitCode))
            if self.sessions.stop_unshown(parent):
                return await self._parent_stop(parent, session, ctx, ended)
            ctx.hint = "; ".join(filter(None, (ctx.hint, ended)))
        return ctx

    def _elsewhere(self, ctx: Context, asked: DebugSession) -> Context:
        """An answer with another session's stop than the one the call was for: the agent is told that the current
        session changed with it (its next call without sessionId acts on that one)."""
        if ctx.state == "paused" and ctx.sessionId != asked.id:
            said = hints.current_changed(str(ctx.sessionId), asked.id, asked.state)
            ctx.hint = "; ".join(filter(None, (said, ctx.hint)))
        return ctx

    async def _parent_stop(self, parent: DebugSession, child: DebugSession, ended: Context, said: str) -> Context:
        """A child's end met its parent paused at a stop the agent has not seen (the last pool worker ended
        once the parent was at a breakpoint past the pool): that stop is the answer, the child's end a hint."""
        ctx = await self._result(parent, timed_out=False, look_for_children=False)
        code = f" with exit code {ended.exitCode}" if ended.exitCode is not None else ""
        note = f"the child process of session {child.id} ended{code} meanwhile"
        if ended.exitCode is None:
            note = said.split(";", 1)[0]
        ctx.hint = "; ".join(filter(None, (note, ctx.hint)))
        return ctx

    # -- breakpoints -------------------------------------------------------------------------

    # A breakpoint is the program's: set, changed or cleared in one of its processes' sessions, it is in all
    # of them (each child's session started with its parent's), the others' answers aside.

    async def add_breakpoint(self, spec: BreakpointSpec, session_id: str | None = None) -> BreakpointView:
        session = self.pick(session_id)
        resolve = None
        if spec.watch and session.state == "paused":
            frame, thread = await paused.focused_frame_id(session), session.require_paused().thread_id
            resolve = functools.partial(watches.resolve, session, frame=frame, thread=thread)
        view = (await session.add_breakpoint(spec, resolve=resolve)).view()
        for other in self._rest_of_program(session) if not spec.watch else ():  # a watch is of one process's memory
            with contextlib.suppress(Failure):
                await other.add_breakpoint(spec, bp_id=view.id)
        return view

    async def update_breakpoint(self, bp_id: int, changes: BreakpointChange, session_id: str | None = None) -> BreakpointView:
        session = self.pick(session_id)
        view = (await session.update_breakpoint(bp_id, changes)).view()
        for other in self._rest_of_program(session):
            with contextlib.suppress(Failure):
                await other.update_breakpoint(bp_id, changes)
        return view

    async def clear_breakpoints(self, file: str | None, ids: list[int] | None, all_: bool, session_id: str | None = None) -> list[int]:
        session = self.pick(session_id)
        removed = await _clear(session, file, ids, all_)
        for other in self._rest_of_program(session):
            with contextlib.suppress(Failure):
                await _clear(other, file, [i for i in ids or [] if i in {bp.id for bp in other.breakpoints.all()}],
                             all_)
        return removed

    def _rest_of_program(self, session: DebugSession) -> list[DebugSession]:
        """The other sessions of `session`'s program still running (its parent's, its children's)."""
        return [s for s in self.sessions.tree(session) if s is not session and s.state != "terminated"] \
            if self.sessions.holds(session) else []

    # -- inspection and change ---------------------------------------------------------------

    async def context(self, thread_id: int | None, frame_id: int | None, max_frames: int,
                      scopes: list[str] | None = None, threads_from: int = 0, session_id: str | None = None,
                      library_frames: bool = False) -> Context:
        session = self.pick(session_id)
        if session.state == "paused":
            self.sessions.shown(session)  # no call of its program returns it again
        if frame_id is not None and session.state == "paused":
            session.check_frame(frame_id)  # an id of an earlier stop may name nothing, or another frame
        if thread_id is not None and frame_id is None and (stack := await threads.not_held(session, thread_id, max_frames)):
            return threads.thread_context(session, stack)
        return await paused.context(session, thread_id=thread_id, frame_id=frame_id, max_frames=max_frames,
                                    scopes=frozenset(name.lower() for name in scopes or ()), threads_from=threads_from,
                                    library_frames=library_frames)

    async def evaluate(self, expression: str, frame_id: int | None, timeout: float = EVALUATE_TIMEOUT, session_id: str | None = None,
                       depth: int = 0) -> dict[str, Any]:
        """`depth`: levels of the value's members to read besides its text (see `session.expand`)."""
        session = self.pick(session_id)
        frame = session.check_frame(frame_id) if frame_id is not None else await paused.focused_frame_id(session)
        await session.recorder.settle()
        session.recorder.state_changed()
        mixed = session.output_from_elsewhere()  # then it may write while the evaluation prints, too
        before, _ = await _all_in(session, frame)  # the program's, not to be taken for the evaluation's
        if console_command(session.profile, expression) is not None and session.profile.console_prints:
            # what it printed is its value
            printed = await session.own.console_text(expression, frame, session.limits.value_chars * 20)
            return {"value": printed.text.strip("\r\n"), "type": None, "truncated": printed.truncated or None}
        interrupts = await session.own.limit(frame, timeout)
        start = session.output.size
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            body = await session.request("evaluate", {"expression": expression, "frameId": frame,
                                                       "context": session.profile.evaluate_context},
                                         timeout=timeout + INTERRUPT_GRACE if interrupts else timeout, holds=expression)
        except Failure as exc:
            if isinstance(exc, AdapterRefused):  # answered, interrupted or not: free for the next request
                await _standing_limit(session, frame, timeout)
            if isinstance(exc, AdapterRefused):  # lldb's words keep Rust's legacy escapes (`_$u7b$$u7b$closure`)
                exc = AdapterRefused(exc.command, session.profile.readable_text(exc.message))
            raise _evaluation_failure(exc, session.profile.name, timeout, interrupts,
                                      ran_out=loop.time() - began >= timeout) from exc
        await _standing_limit(session, frame, timeout)
        if (failed := body.get("result") in session.profile.failed_evaluations) or not body.get("result"):
            why = await _why_not(session, expression, frame)
            if failed or why:
                raise DebugError(ErrorCode.ADAPTER_ERROR, f"{session.profile.name} could not evaluate '{expression}' "
                                 f"in frame {frame}: {why or body['result'] + ' (an unknown name, or not an expression)'}")
        result = assign.value_of(await _previewed(session, expression, body, frame), body, session)
        result.update(await _expanded(session, expression, body, depth))
        printed = await _printed(session, frame)
        out = session.output.take_from(start, session.limits.output_chars)
        if out.text:
            result["output"] = out.text
            result["outputTruncated"] = out.truncated or None
        elif not result["value"] and not result["type"] and (held := session.profile.output_held(session.target)):
            result["hint"] = held  # a statement or a call that returned nothing, `print(...)`, printed nothing
        if out.text or not printed:
            result["outputIncomplete"] = not (before and printed) or mixed or None
        return result

    async def set_variable(self, name: str, value: str, frame_id: int | None, session_id: str | None = None) -> dict[str, Any]:
        session = self.pick(session_id)
        frame = session.check_frame(frame_id) if frame_id is not None else await paused.focused_frame_id(session)
        if session.profile.sets_in_top_frame_only and (place := paused.frame_place(session, frame)):
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"{session.profile.name} sets a variable in the innermost frame "
                             f"only, whatever frame is named (go-delve/delve#3171), and frame {frame} is {place} "
                             "frame(s) below it: `step out` until it is the innermost, then set it; `evaluate` reads "
                             "it where it is")
        await session.recorder.settle()
        session.recorder.state_changed()
        return await assign.set_variable(session, name, value, frame)

    async def info(self, kind: Literal["sources", "modules", "threads"], session_id: str | None = None,
                   max_frames: int = THREAD_FRAMES, offset: int = 0, limit: int = 200) -> dict[str, Any]:
        session = self.pick(session_id)
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

    async def disassemble(self, memory_reference: str | None, offset: int, count: int, session_id: str | None = None) -> dict[str, Any]:
        session = self.pick(session_id)
        if not session.capabilities.get("supportsDisassembleRequest"):
            raise DebugError(ErrorCode.NOT_SUPPORTED,
                             f"{session.profile.name} does not support disassembly (no supportsDisassembleRequest)")
        info = session.require_paused()
        if memory_reference is None:
            frames = await session.stack(session.thread(info.thread_id))
            memory_reference = (frames or [{}])[0].get("instructionPointerReference")
            if not memory_reference:
                raise DebugError(ErrorCode.NOT_SUPPORTED, f"{session.profile.name} gives no instruction address here")
        found = await instructions(session, memory_reference, offset, count)
        return {"instructions": [
            {k: i[k] for k in ("address", "instructionBytes", "instruction", "symbol", "line") if i.get(k) is not None}
            for i in found]}

    async def memory(self, reference: str | None, expression: str | None, offset: int, count: int,
                     frame_id: int | None, session_id: str | None = None) -> dict[str, Any]:
        session = self.pick(session_id)
        session.require_paused()
        frame = session.check_frame(frame_id) if frame_id is not None else await paused.focused_frame_id(session)
        return await contents.read(session, reference, expression, offset, count, frame)

    # -- snapshots ---------------------------------------------------------------------------

    async def snapshot_create(self, label: str | None, thread_id: int | None, frame_index: int,
                              depth: int, session_id: str | None = None) -> tuple[Snapshot, str | None]:
        session = self.pick(session_id)
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

    async def _snapshots(self, session_id: str | None = None) -> SnapshotStore:
        """The store, once the current stop is recorded: `@t0` is always the stop the program is at."""
        recorder = self.pick(session_id).recorder
        await recorder.settle()
        return recorder.store

    async def snapshot_diff(self, ref_a: str, ref_b: str, form: Literal["variables", "pact"],
                            session_id: str | None = None,
                            under: str | None = None) -> tuple[dict[str, Any], str | None]:
        """The whole diff, and a warning where the two cannot be compared whole; `under`: only what lies at that
        path or below it. The caller pages it (`diff.page`)."""
        store = await self._snapshots(session_id)
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

    async def snapshot_list(self, session_id: str | None = None) -> tuple[list[Snapshot], dict[str, int] | None]:
        store = await self._snapshots(session_id)
        return list(store.saved.values()), store.kept()

    async def snapshot_delete(self, ref: str | None, session_id: str | None = None) -> tuple[str, int]:
        return (await self._snapshots(session_id)).delete(ref)

    async def snapshot_export(self, ref: str, path: str | None, offset: int, limit: int, session_id: str | None = None) -> dict[str, Any]:
        """The snapshot's canonical text written whole to `path` and answered with its size and digest only (an
        agent that asked for a file need not read it again), or else answered whole when it fits in `limit`
        characters, a page at a time from `offset` when not: the text is byte-stable, so pages join up."""
        snapshot = (await self._snapshots(session_id)).get(ref)
        data = codec.export(snapshot)
        out: dict[str, Any] = {"snapshotId": snapshot.id}
        if path is not None:
            target = self._path(path, session_id)
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

    def _path(self, path: str, session_id: str | None = None) -> Path:
        """A user's file path, relative to the program's directory; NUL bytes and the like are refused."""
        if "\x00" in path:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "a path cannot contain NUL characters")
        return Path(self.pick(session_id).target.cwd or ".") / Path(path).expanduser()

    async def snapshot_import(self, data: str | None, path: str | None, session_id: str | None = None) -> tuple[Snapshot, str | None]:
        session = self.pick(session_id)
        if (data is None) == (path is None):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "give either data or path")
        if path is not None:
            data = await asyncio.to_thread(_read_bounded, self._path(path, session_id), codec.MAX_IMPORT_BYTES)
        store = session.recorder.store
        store.check_room()
        try:
            snapshot = codec.parse(data or "", new_id(), session.recorder.capture_limits.nodes)
        except codec.SnapshotDataError as exc:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot import snapshot: {exc}") from None
        return snapshot, store.save(snapshot)


async def _all_in(session: DebugSession, frame: int | None) -> tuple[bool, bool]:
    """Wait for the output the program wrote so far (before it stopped, or before an evaluation): whether it is
    all in, and whether that is known, by a mark written behind it (see marks.py; what comes after the mark was
    written after it, by another process), or judged by a pause (`OutputBuffer.settle`). `frame`: where to
    write the mark; the stop's focused frame if None."""
    if session.nothing_written():
        return True, True
    if session.marks_written:
        with contextlib.suppress(Failure):
            frame = await paused.focused_frame_id(session) if frame is None else frame
            if (marked := await session.output_marked(frame, OUTPUT_SETTLES)) is not None:
                return marked, marked
    return await session.output.settle(OUTPUT_SETTLES), False


async def _printed(session: DebugSession, frame: int) -> bool:
    """Wait for what an evaluation printed, which comes after its answer: whether it is all in. Known by marks
    where they can be written; else judged by pauses: most evaluations print nothing or a line, and pay 15 ms; a
    flood is waited for until it ends; output that goes on past a pause in it (another process writing to the
    program's output) is not the evaluation's alone."""
    if session.nothing_written():
        return True
    if (marked := await session.output_marked(frame, MARKS_BACK)) is not None:
        return marked
    return await session.output.quiet(0.015, 0.1) or await session.output.settle(OUTPUT_SETTLES, surely=True)


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


def _not_ended_by_another_call(session: DebugSession) -> None:
    """A program another call ended would read as ending by itself, with the kill's exit code for a crash."""
    if session.ended_by is not None:
        raise DebugError(ErrorCode.TERMINATED, f"another call ({session.ended_by}) ended the session while this "
                         "call waited on it, before the program was reported to have exited by itself")


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


def new_session(target: Target, adapter: str | None, carried: list[Breakpoint] | None = None,
                snapshots: list[Snapshot] | None = None, *, session_id: str = "s1") -> DebugSession:
    if target.mode != "attach" and target.file and not target.module:
        path = os.path.join(target.cwd or os.getcwd(), target.file)
        if not os.path.exists(path):
            raise DebugError(ErrorCode.FILE_NOT_FOUND, f"{'tests' if target.mode == 'test' else 'program'} not "
                             f"found: {target.file}")
    profile = adapters.select(target, adapter)
    return DebugSession(profile.settled(target), profile, carried=carried, snapshots=snapshots, session_id=session_id)


def _started(ctx: Context, session: DebugSession) -> Context:
    """The first answer of a `debug` or `restart`, with what it says besides the stop: where files are named
    from, and the interpreter the program runs on where the profile chose one."""
    ctx.pathsRelativeTo = session.target.files_from
    if (chosen := session.target.interpreter) is not None:
        ctx.interpreter = InterpreterView(path=chosen.path, chosen=chosen.chosen)
    return ctx


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
    explain = session.profile.explain_failure
    if explain is None:
        return None
    quoted = expression.replace("\\", "\\\\").replace('"', '\\"')
    return (await session.own.evaluate(explain.format(expression=quoted), frame, "repl"))[1]


async def _expanded(session: DebugSession, expression: str, body: dict[str, Any], depth: int) -> dict[str, Any]:
    """An evaluation's members `depth` levels down (`children`), and the parts its answer still leaves out with
    how to see them (`leftOut`, `expand`): a value's text alone cut nested parts without a word (issue 34 point 15)."""
    root = {"name": expression, "value": body.get("result", ""), "type": body.get("type"),
            "variablesReference": body.get("variablesReference"), "evaluateName": expression}
    found = await expand.levels(session, root, depth, session.profile.values, session.profile.hidden_variables,
                                session.limits)
    out: dict[str, Any] = {"children": found.children}
    if found.left_out:
        out["leftOut"] = found.left_out[:expand.LEFT_OUT]
        out["leftOutTotal"] = len(found.left_out) if len(found.left_out) > expand.LEFT_OUT else None
        out["expand"] = expand.how_to_expand(expression, depth, found)
    return out


async def _previewed(session: DebugSession, expression: str, body: dict[str, Any], frame: int) -> str:
    """An evaluation's value, its first level shown where the adapter's text hides it (see `session.preview`)."""
    raw = {"value": body.get("result", ""), "type": body.get("type"),
           "variablesReference": body.get("variablesReference"), "evaluateName": expression}
    known = session.frames.get(frame)
    await preview.preview(session, [raw], session.profile.values,
                          preview.Place(*known) if known is not None else None)
    return str(raw.get(PREVIEW) or raw["value"])
