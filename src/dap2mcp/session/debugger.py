"""The debugger an MCP server holds: the sessions running (`Sessions`) and what spans them: starting, restarting and
ending sessions, the documents the server's resources show, and a call's handle on one session (`SessionHandle`,
which has the verbs a call runs there).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from .. import adapters
from ..adapters import AdapterSpec, Target, cores
from ..errors import DebugError, ErrorCode, Failure
from ..snapshots import Snapshot
from . import answer, documents, hints
from .breakpoints.breakpoint import Breakpoint
from .breakpoints.specs import BreakpointSpec
from .family import Family
from .handle import SessionHandle
from .models import Context, InterpreterView
from .program import children, ending, testing
from .program.checks import check_breakpoints, check_path_mappings, check_start, refuse_on_core
from .program.startup import injections_finished
from .session import DebugSession
from .sessions import Sessions
from .stop import reverse

PROGRAM_ANNOUNCED_WITHIN = 5.0
"""How long `debug` waits for the program's own session, where the launcher's adapter announces it as a child
(js-debug attaching to the Node process it started): it comes within a second once Node runs."""


DOCUMENTS = ("session", "breakpoints", "threads", "snapshots", "output")
"""The documents `document` builds: the server's resources."""

Progress = Callable[[str], Awaitable[None]]
"""Told what a slow start is doing (the server turns it into MCP progress notifications)."""


async def _quiet_progress(message: str) -> None:
    return None


class Debugger:
    def __init__(self) -> None:
        self.sessions = Sessions()
        """Every session running, by handle; only the debugger adds and removes them."""
        self._asked: dict[str, str | AdapterSpec | None] = {}
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
        """The id of the session a call is about: `session_id` checked, or the current session's."""
        return self.pick(session_id).id

    def handle(self, session_id: str | None = None) -> SessionHandle:
        """The session `session_id` names, or the current one, as a call's handle on it (a clear NO_SESSION
        otherwise): looked up once, where the call comes in."""
        return SessionHandle(self.pick(session_id), self.sessions, self.family)

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


    # -- lifecycle ---------------------------------------------------------------------------

    async def debug(self, target: Target, *, adapter: str | AdapterSpec | None, breakpoints: list[BreakpointSpec],
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
            if bp.verified or (session.profile.breakpoints.binds_as_scripts_load and bp.kind == "line" and bp.active)]
        waits = session.state == "running" and (target.stop_on_entry or bool(stoppers)
                                                or target.launched or target.mode == "core")  # a core's state
        started_in = asyncio.get_running_loop().time() - began
        if waits:
            await progress("running to the first stop")
            stopped, _ = await self.family.wait(session, 0, max(0.0, timeout - started_in))
            if stopped is not session:  # a child process stopped first (js-debug: the program, see program_in_child)
                return _started(await answer.result(self.sessions, stopped, timed_out=False), session)
        if session.state == "terminated":
            await session.let_go_of_entry()
        # the program runs in the session its launcher's adapter announces: that one is current, and answers
        # (its start is part of the program's, not cut short by `timeout`); its breakpoints are those that bind
        answering = bound_in = session
        if session.profile.program.program_in_child and (program := await self.family.program_of(
                session, PROGRAM_ANNOUNCED_WITHIN if session.state != "terminated" else 0.0)) is not None:
            bound_in = program
            if session.state != "terminated":
                self.sessions.make_current(program)
                answering = program
        if target.record and answering.state == "paused" and answering.recording is None:
            await reverse.record(answering, True, None)  # from the first stop on
        ctx = await answer.result(self.sessions, answering, timed_out=waits and answering.state == "running")
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
        if said is None and session.target.mode == "core":
            said = f"closed the core file {session.target.core}"
        elif said is None and not session.launched and session.exit_code is None:
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
                      session_id: str | None = None, path_mappings: list[tuple[str, str]] | None = None) -> Context:
        """`args` and `path_mappings` (local, remote) replace the previous ones where given."""
        old = children.launcher_of(self.pick(session_id))
        refuse_on_core(old.target, "run again")
        if old.parent_id is not None:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"session {old.id} is a child process of session "
                             f"{old.parent_id}'s program, which starts it: `restart` sessionId {old.parent_id}")
        old.recorder.hold_new()  # snapshots being taken finish and are carried; no new ones start
        await old.recorder.settle()
        try:
            target = old.target.with_args(args)
            if path_mappings is not None:
                target = target.mapped(path_mappings)
            return await self.debug(target, adapter=self._asked.get(old.id), breakpoints=[],
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


def new_session(target: Target, adapter: str | AdapterSpec | None, carried: list[Breakpoint] | None = None,
                snapshots: list[Snapshot] | None = None, *, session_id: str = "s1") -> DebugSession:
    profile = adapters.select(target, adapter)
    if target.record:  # refused before the current session is ended; what the recording needs, in the environment
        if profile.reverse.record_on is None:
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"record: {profile.name}: {profile.reverse.cannot}")
        target = dataclasses.replace(target, env={**dict(profile.reverse.record_env), **target.env})
    return DebugSession(profile.settled(target), profile, carried=carried, snapshots=snapshots, session_id=session_id)


def _started(ctx: Context, session: DebugSession) -> Context:
    """The first answer of a `debug` or `restart`, with what it says besides the stop: where files are named
    from, and the interpreter the program runs on where the profile chose one."""
    ctx.pathsRelativeTo = session.target.files_from
    target = session.target
    if target.mode == "core" and target.program and cores.stripped(target.program):
        ctx.hint = (f"{os.path.basename(target.program)} has no symbols (stripped): frames show addresses only; the "
                    "build with its symbols (or its debug file) shows functions, lines and variables")
    if (chosen := session.target.interpreter) is not None:
        ctx.interpreter = InterpreterView(path=chosen.path, chosen=chosen.chosen)
    return ctx
