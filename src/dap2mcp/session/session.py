"""One debug session: the pieces that each own part of its state, wired together, and what the adapter's
events do to them.

    Link            the adapter connection, `initialize`, capabilities, requests      (program/link.py)
    Run             running / paused / ended, the stop, the frames valid at it       (program/run.py)
    ExitCode        the exit code where no `exited` event brings it                  (program/exit_code.py)
    ProgramProcesses  the debuggee's processes, its children among them               (program/program.py)
    Stops           a `stopped` event in the agent's terms                           (stop/stops.py)
    Answers         the adapter's answers shaped for the agent                       (stop/answers.py)
    StopRecorder    a snapshot of every stop                                          (stop/recorder.py)
    OwnEvaluations  evaluations dap2mcp makes for itself                              (stop/own_evaluations.py)
    BreakpointRegistry  the agent's breakpoints and the adapter's view of them  (breakpoints/registry.py)
    TracepointLines tracepoints' messages in the program's own output     (breakpoints/tracepoint_lines.py)
    OutputBuffer    the program's output; another for the adapter's own words         (output/buffer.py)
    OutputAllIn     whether that output is all in, by marks or by pauses              (output/all_in.py)

Events come from the link and are dispatched by name through one table (`self._events`); each handler hands
what the event says to the piece that owns it. Nothing here holds a lock across a wait: a `continue`
waiting for a stop and a `pause` or `context` issued meanwhile all proceed, and all wake on the same
change of the run state.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import re
import weakref
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Literal, overload

import psutil

from .. import reaper
from ..adapters import AdapterProfile, AdapterStart, Target
from ..adapters.base import OWN_PRINT, FunctionFilter, FunctionPlace
from ..background import unlogged
from ..dap import AdapterRefused, bodies
from ..errors import DebugError, ErrorCode, Failure
from ..processes import killed_by
from ..program_pipe import ProgramPipe
from ..snapshots import Snapshot
from .breakpoints import watch_frames
from .breakpoints.breakpoint import Breakpoint
from .breakpoints.registry import BreakpointRegistry
from .breakpoints.specs import BreakpointChange, BreakpointSpec
from .breakpoints.tracepoint_lines import TracepointLines
from .models import Frame, State, StopInfo, WatchReport
from .output.all_in import OutputAllIn
from .output.buffer import OutputBuffer, OwnPrintHolder, TracebackCutter
from .program import startup, testing
from .program.exit_code import WAITED_WITHIN, ExitCode
from .program.link import Link
from .program.owed import StillOwed
from .program.program import ProgramProcesses
from .program.run import FrameTable, Run
from .sources import TOOLING, SourceAllowList
from .stop.answers import Answers
from .stop.inspect import Limits, is_own
from .stop.own_evaluations import OwnEvaluations
from .stop.recorder import StopRecorder
from .stop.stops import Stops

log = logging.getLogger(__name__)

_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
_QUIET_EVENTS = frozenset({"loadedSource", "module"})
"""Events that change nothing an agent or a resource shows."""
_TAGGING: weakref.WeakValueDictionary[str, DebugSession] = weakref.WeakValueDictionary()
"""Every live session by its breakpoints' tag nonce: a tracepoint's message printed into the program's output
(`AdapterProfile.breakpoints.logs_in_program_output`) names the session that logged it, a worker thread's or the program's,
while the launcher reads it from the pipes."""


class DebugSession:
    def __init__(self, target: Target, profile: AdapterProfile, *, carried: list[Breakpoint] | None = None,
                 snapshots: list[Snapshot] | None = None, limits: Limits | None = None, session_id: str = "s1",
                 parent_id: str | None = None, rereads: bool | None = None) -> None:
        """`rereads`: the run reads the program's files as they are now (a child process that is a new program,
        not a fork), so carried line breakpoints follow edits of them; by default, as the target's mode says."""
        self.id = session_id
        """The handle an agent names this session by (`sessionId`); a `restart`'s session keeps it."""
        self.recording: int | None = None
        """While the program is recorded (`record`, `debug {record: true}`): how much the recording may hold (the
        debugger's unit; 0 where it does not say); None when nothing is recorded."""
        self.replaying = False
        """The last stop was in the recorded past (after a step or continue backwards, until a forward move passes
        the recording's end)."""
        self.parent_id = parent_id
        """The session whose program started this one's (a child process), if any."""
        self.target = target
        self.profile = profile
        self.limits = limits or Limits()
        self.runtime: str | None = None
        self.started_at = datetime.now(UTC)
        self.notice: Callable[[dict[str, Any]], None] = lambda data: None
        """Where breakpoint and tracepoint hits are announced (the server forwards them to the client)."""
        self.changed: Callable[[], None] = lambda: None
        """Called whenever something a resource shows may have changed (the server compares and notifies)."""
        self.on_child: Callable[[DebugSession, dict[str, Any]], None] = lambda session, arguments: None
        """Where the `startDebugging` of a child process goes (the debugger makes it a session of its own)."""
        self.launcher: DebugSession | None = None
        """The session whose connection only launched this one's program (see `share_program`)."""
        self.sharers: list[DebugSession] = []
        """The sessions that debug the program this one's connection launched (see `share_program`)."""

        self.link = Link(profile)
        self.run = Run(stray_step_stops=profile.stops.stray_step_stops)
        self.exits = ExitCode(self.run, lambda: self.link.program_ending)
        """The exit code where no `exited` event brings it (a child process's, a program started for js-debug)."""
        self.run.on_change = lambda: self.changed()
        if rereads is None:
            rereads = target.mode in ("source", "test") or (target.mode == "binary" and profile.language == "python")
        self.rereads = rereads
        self.breakpoints = BreakpointRegistry(profile, carried or [], capabilities=lambda: self.link.capabilities,
                                              edited=rereads, place_function=self._place_function,
                                              function_filters=lambda: profile.function_filters(self.target),
                                              as_run=lambda path: self.target.remote_path(path),
                                              file_refusal=lambda path: profile.file_refusal(path, self.target))
        _TAGGING[self.breakpoints.nonce] = self
        self._tracepoint_lines = TracepointLines(profile.breakpoints.log_tag) if profile.breakpoints.logs_in_program_output else None
        self.stops = Stops(profile, self.breakpoints, self.run)
        self.answers = Answers(profile, lambda: self.target, self.own_code, self.link)
        self.sources = SourceAllowList(breakpoint_suffixes=profile.extensions)
        self.output = OutputBuffer()
        self.adapter_output = OutputBuffer(keep_chars=100_000)
        self._tracebacks = TracebackCutter(profile.output.launcher_frames)
        self._own_prints = OwnPrintHolder(OWN_PRINT)
        self.watch_report: WatchReport | None = None
        """What the watches said about the latest stop (`watches.after_stop`)."""
        self._recent_output = ""
        """The end of the program's output so far, where an adapter's end-of-program text is looked for."""
        self.own = OwnEvaluations(profile, self, self.adapter_output)
        self.all_in = OutputAllIn(lambda: self.output, self.run, profile.output, self.own)
        """Whether the program's output is all in, at a stop or after an evaluation."""
        self.processes = ProgramProcesses(profile, lambda: self.target, self.run, lambda: self.link.adapter_process)
        self.recorder = StopRecorder(self, lambda: self.link.capabilities, self.limits, profile.evaluation,
                                     carried=snapshots, helper=profile.helper_source(), own=self.own_code,
                                     steady_ids=profile.stops.steady_ids, library_files=profile.library_files,
                                     relist=self.own.unlisted_variables,
                                     lists_all_children=profile.program.lists_all_children, shapes=profile.values,
                                     reread=self.own.reread if profile.evaluation.scopes_copied_at_stop else None)
        self.recorder.recorded = lambda: self.changed()
        self.launched = target.launched
        self.start_failed = asyncio.Event()
        self._plan: AdapterStart | None = None
        self._pipe: ProgramPipe | None = None
        self._closing: asyncio.Task[None] | None = None
        self._guarded: dict[int, str] = {}
        """What the orphan guard watches for this session: pid, start time."""
        self._guarding: asyncio.Future[None] | None = None
        self._events: dict[str, Callable[[Any], None]] = {
            "initialized": self.link.on_initialized,
            "capabilities": self.link.on_capabilities,
            "process": self.run.on_process,
            "continued": self.run.continued,
            "exited": self.run.exited,
            "stopped": self._on_stopped,
            "terminated": self._on_ended,
            "_closed": self._on_ended,  # the link's own: the connection is gone
            "output": self._on_output,
            "breakpoint": self._on_breakpoint,
            "loadedSource": functools.partial(self.sources.note_event, "loadedSource"),
            "module": functools.partial(self.sources.note_event, "module"),
        }

    # -- the state, as the pieces that own it have it -----------------------------------------

    @property
    def state(self) -> State:
        return self.run.state

    @property
    def stop_info(self) -> StopInfo | None:
        return self.run.stop_info

    @property
    def stop_count(self) -> int:
        return self.run.stop_count

    @property
    def exit_code(self) -> int | None:
        return self.run.exit_code

    @property
    def ended_by(self) -> str | None:
        return self.run.ended_by

    @property
    def frames(self) -> FrameTable:
        return self.run.frames

    @property
    def capabilities(self) -> dict[str, Any]:
        return self.link.capabilities

    @property
    def has_client(self) -> bool:
        """Connected to an adapter that is still there."""
        return self.link.connected

    # -- what the adapter's events do ---------------------------------------------------------

    def _on_event(self, event: str, body: Any) -> None:
        """Called by the link for every event, on the event loop and without awaiting: whatever takes a
        request is started as a task of its own. `body`: typed where the event has a type (`bodies.EVENTS`)."""
        handler = self._events.get(event)
        if handler is None:
            return
        handler(body)
        if event not in _QUIET_EVENTS:
            self.run.notify()

    def _on_stopped(self, body: bodies.StoppedBody, pause_judged: bool = False) -> None:
        if self.state == "terminated":
            return  # gdb stops once more after it has reported the program's end
        if self.run.stray_step(body):
            log.debug("continuing past a stray step stop")
            asyncio.ensure_future(self.tolerant_request("continue", {"threadId": body.threadId}))
            return
        if not pause_judged and self.has_client and self.stops.may_be_unasked(body):
            asyncio.ensure_future(self._judge_pause(body))
            return
        if self.has_client and self.stops.incomplete(body):
            asyncio.ensure_future(self._complete_stop(body))
            return
        self._judged_stop(body)

    def _judged_stop(self, body: bodies.StoppedBody, watches_judged: bool = False, line_judged: bool = False) -> None:
        if not line_judged and self.has_client and self.stops.may_be_same_line(body):
            asyncio.ensure_future(self._judge_line_stop(body))
            return
        if not watches_judged and self.has_client and watch_frames.may_have_outlived(self.profile, self.breakpoints, body):
            asyncio.ensure_future(self._judge_watch_stop(body))
            return
        caught = self.breakpoints.caught_by(body.hitBreakpointIds or [])
        if self.has_client and testing.judged(self.target, self.profile, body, caught):
            asyncio.ensure_future(self._judge_stop(body, caught))
            return
        self._stopped(body)

    async def _judge_pause(self, body: bodies.StoppedBody) -> None:
        """A pause nobody asked for, on a line that does not ask for one, is the adapter's own (js-debug's at a
        new process's first statement, under load): gone on from."""
        if await self.stops.unasked(body, self.link):
            log.debug("continuing past a pause the adapter made of its own")
            await self.tolerant_request("continue", {"threadId": body.threadId})
        elif self.state != "terminated":
            self._on_stopped(body, pause_judged=True)

    async def _judge_line_stop(self, body: bodies.StoppedBody) -> None:
        """A breakpoint's later place on the line the move left, in the same run of it, is no stop: the move goes on."""
        if await self.stops.same_run_of_line(body, self.link):
            log.debug("going on past another place of the line the move left")
            await self.tolerant_request(self.run.last_move, {"threadId": body.threadId})
        elif self.state != "terminated":
            self._judged_stop(body, line_judged=True)

    async def _judge_watch_stop(self, body: bodies.StoppedBody) -> None:
        """A watch's stop on the stack slot of a frame that has returned is no stop of the program's: gone on from."""
        try:
            stale = watch_frames.outlived(self.breakpoints, await self.stack(body.threadId, watch_frames.STACK_LIMIT))
            await self.breakpoints.sync_watches(self.tolerant_request)
        except Failure:
            stale = False
        if stale:
            log.debug("continuing past a watch whose frame has returned")
            await self.tolerant_request("continue", {"threadId": body.threadId})
        elif self.state != "terminated":
            self._judged_stop(body, watches_judged=True, line_judged=True)

    async def _judge_stop(self, body: bodies.StoppedBody, caught: FunctionFilter | None) -> None:
        """An exception in a test run that fails no test (a skip), or a failure reported again, is gone on from;
        one that fails a test is the stop."""
        if not await testing.fails(self.target, self.profile, body, caught, self.link.request):
            log.debug("continuing past an exception that fails no test")
            await self.tolerant_request("continue", {"threadId": body.threadId})
        elif self.state != "terminated":
            self._stopped(body)

    async def _complete_stop(self, body: bodies.StoppedBody) -> None:
        """A stop the adapter described in part (Delve names no thread after a pause), taken once filled in."""
        done = await self.stops.complete(body, self.link)
        if self.state != "terminated":
            self._judged_stop(done)

    def _stopped(self, body: bodies.StoppedBody) -> None:
        info = self.stops.read(body)
        self.run.stopped(info)
        if (entry := self.stops.take_spent()) is not None:
            asyncio.ensure_future(self._drop_stand_in(entry))
        self.recorder.on_stop(self.stop_count, info.thread_id, info.reason)
        for bp in self.breakpoints.count_stop(info.hit_breakpoint_ids):
            self.notice({"event": "breakpoint", "breakpointId": bp.id, "hitCount": bp.hit_count,
                         "cycle": self.stop_count})

    def _on_ended(self, body: dict[str, Any]) -> None:
        """The adapter says the program is gone (or the connection to it is): let go of the adapter."""
        if self.run.ended():
            self._closing = asyncio.ensure_future(self._release_adapter())

    def _on_breakpoint(self, body: bodies.BreakpointEventBody) -> None:
        self.breakpoints.on_event(body.breakpoint)
        self.sources.note_breakpoint(body.breakpoint)

    def _on_output(self, body: bodies.OutputBody) -> None:
        category, raw = "console" if body.category is None else body.category, body.output
        raw, marked = self.all_in.take_out(category, raw)
        profile = self.profile
        text = profile.shown_output(category, raw, self.state == "starting", self.target.mode == "connect")
        tracepoint, text = self.breakpoints.take_tracepoint(text)
        if category in ("stdout", "stderr"):
            text = self._tracebacks.cut(text)
            if marked:  # what came before the mark is all in: a line held back as a traceback's maybe is whole
                text += self._tracebacks.release()
        if tracepoint is None and self.launcher is not None and self.launcher.launched \
                and category in ("stdout", "stderr"):
            pass  # a copy of what the program wrote to the pipes its launcher reads (js-debug reports console calls)
        elif tracepoint is not None or profile.programs(category, self.target.mode == "connect"):
            text, own = profile.own_lines(self._own_prints.join(category, text))
            self.output.append(category, text)
            self._adapter_said(category, own)
        else:
            self._adapter_said(category, self.breakpoints.in_given_words(text))
        self._recent_output = (self._recent_output + raw)[-400:]  # the adapter may split a line across events
        self._exit_printed()
        if tracepoint is not None:
            self._traced(tracepoint, text)
        if self.state == "starting" and any(m in text for m in profile.launch.start_failure_markers):
            self.start_failed.set()

    def _exit_printed(self) -> None:
        """The program's end as the adapter prints it (gdb: "exited with code 01"), which may be all it says. A
        core's program ended before the session began: what the adapter says of that end is the core's story."""
        if self.target.mode == "core" or (code := self.profile.exit_code(self._recent_output)) is None:
            return
        if self.exit_code is None:
            if self.processes.runs():  # the program printed what its end would look like
                self._recent_output = ""
                return
            self.run.exit_printed(code)
            if self.profile.program.exit_in_output_ends:  # nothing else will say the program is gone
                self._on_ended({})
        elif self.profile.program.exit_in_output_ends and self.state == "terminated":
            self.run.exit_printed(code)  # the program's own copy, flushed at its exit, came first; the adapter's last

    def _program_output(self, category: str, text: str) -> None:
        """Output the adapter forwards outside DAP (Delve's debuggee writes to Delve's own stdout), or the
        program's own pipes (a program started through `runInTerminal`), tracepoints' messages among it."""
        if self._tracepoint_lines is None:
            self._program_text(category, text)
        else:
            for piece in self._tracepoint_lines.split(text):
                if piece.nonce is None:
                    self._program_text(category, piece.text)
                else:
                    self._printed_tracepoint(category, piece.text, piece.nonce)
        self.run.notify()

    def _program_text(self, category: str, text: str) -> None:
        text, own = self.profile.own_lines(self._own_prints.join(category, text))
        self.output.append(category, text)
        self._adapter_said(category, own)

    def _printed_tracepoint(self, category: str, text: str, nonce: str) -> None:
        """A tracepoint's message the program printed: the message alone in the output, counted and noticed by
        the session whose breakpoint it is (a worker thread's logs through the program's pipes)."""
        owner = _TAGGING.get(nonce, self)
        tracepoint, text = owner.breakpoints.take_tracepoint(text)
        self.output.append(category, text)
        if tracepoint is not None:
            owner._traced(tracepoint, text)

    def _terminal_exited(self, pid: int, returncode: int) -> None:
        """The program started through `runInTerminal` ended: its status is the exit code where the adapter
        sends no `exited` event (js-debug), here and in the sessions that share the program."""
        for session in (self, *self.sharers):
            session.exits.terminal_exited(returncode)

    def share_program(self, launcher: DebugSession) -> None:
        """This session debugs the program that `launcher`'s connection only started (js-debug's first
        connection is a launcher; its first child session is the program): the program's output, which comes
        to the launcher, and its exit code are this session's too."""
        self.launcher = launcher
        self.output = launcher.output
        self.exits.from_launcher = True
        launcher.sharers.append(self)

    def _adapter_said(self, category: str, text: str) -> None:
        """The adapter's own words, kept apart from the program's output (colour codes dropped: no terminal shows them)."""
        self.adapter_output.append(category, _COLOUR.sub("", text))

    def _traced(self, bp: Breakpoint, text: str) -> None:
        self.notice({"event": "tracepoint", "breakpointId": bp.id,
                     "message": text.rstrip("\n")[: self.limits.value_chars * 4],
                     "hitCount": bp.hit_count, "notificationsSent": bp.notifications_sent})
        if bp.exhausted and self.has_client:  # it has said enough
            asyncio.ensure_future(self.breakpoints.spend(self.tolerant_request, bp, running=self.state != "paused"))

    # -- requests ----------------------------------------------------------------------------

    @overload
    async def request(self, command: Literal["stackTrace"], arguments: dict[str, Any] | None = None,
                      timeout: float = 10.0, *, holds: str | None = None) -> bodies.StackTraceBody: ...
    @overload
    async def request(self, command: Literal["scopes"], arguments: dict[str, Any] | None = None,
                      timeout: float = 10.0, *, holds: str | None = None) -> bodies.ScopesBody: ...
    @overload
    async def request(self, command: Literal["variables"], arguments: dict[str, Any] | None = None,
                      timeout: float = 10.0, *, holds: str | None = None) -> bodies.VariablesBody: ...
    @overload
    async def request(self, command: Literal["threads"], arguments: dict[str, Any] | None = None,
                      timeout: float = 10.0, *, holds: str | None = None) -> bodies.ThreadsBody: ...
    @overload
    async def request(self, command: bodies.BreakpointsCommand, arguments: dict[str, Any] | None = None,
                      timeout: float = 10.0, *, holds: str | None = None) -> bodies.BreakpointsBody: ...
    @overload
    async def request(self, command: Literal["setExceptionBreakpoints"], arguments: dict[str, Any] | None = None,
                      timeout: float = 10.0, *, holds: str | None = None) -> bodies.ExceptionBreakpointsBody: ...
    @overload
    async def request(self, command: str, arguments: dict[str, Any] | None = None, timeout: float = 10.0, *,
                      holds: str | None = None) -> dict[str, Any]: ...

    async def request(self, command: str, arguments: dict[str, Any] | None = None, timeout: float = 10.0, *,
                      holds: str | None = None) -> Any:
        """A request through the link (its answer typed there, see `Link.request`), shaped for the agent
        (`answers.py`) and its files noted as ones the agent may read. `holds`: see `Link.request`."""
        try:
            body = await self.link.request(command, arguments, timeout, holds=holds)
        except StillOwed:  # not sent: nothing waited for the adapter
            raise
        except Failure as exc:  # the adapter's "No more messages" would read as the request's own failure
            if self.ended_by is None or (isinstance(exc, DebugError) and exc.code == ErrorCode.TERMINATED):
                raise
            raise DebugError(ErrorCode.TERMINATED, f"another call ({self.ended_by}) ended the session while '{command}' "
                             "waited for the adapter") from exc
        self.sources.note_response(command, arguments, body)
        await self.answers.shape(command, arguments, body, timeout)
        return body

    async def stack(self, thread: int, levels: int = 1, start: int = 0) -> list[bodies.StackFrame]:
        """`levels` frames of `thread`'s stack from `start` (0: the innermost), as the agent reads them."""
        return (await self.request("stackTrace", {"threadId": thread, "startFrame": start, "levels": levels})).stackFrames

    @overload
    async def tolerant_request(self, command: bodies.BreakpointsCommand,
                               arguments: dict[str, Any]) -> bodies.BreakpointsBody: ...
    @overload
    async def tolerant_request(self, command: Literal["setExceptionBreakpoints"],
                               arguments: dict[str, Any]) -> bodies.ExceptionBreakpointsBody: ...
    @overload
    async def tolerant_request(self, command: str, arguments: dict[str, Any]) -> dict[str, Any]: ...

    async def tolerant_request(self, command: str, arguments: dict[str, Any]) -> Any:
        """Breakpoints that the adapter rejects become unverified ones, not a failed call or start."""
        try:
            return await self.request(command, arguments)
        except AdapterRefused as exc:
            count = len(arguments.get("breakpoints") or [])
            return bodies.response(command, {"breakpoints": [{"verified": False, "message": exc.message}] * count})

    def held(self) -> bool:
        """The adapter still owes an answer past its timeout (see owed.py)."""
        return self.link.owing() is not None

    # -- start and end -----------------------------------------------------------------------

    @property
    def starts_early(self) -> bool:
        """Whether `connect` may run while `profile.ready` still checks the program (see `plans_before_ready`):
        for a launch only, whose adapter is this session's alone; an attach or a connect would reach a
        process or an adapter that the current session may still hold."""
        return self.profile.launch.plans_before_ready and self.target.launched

    async def ready(self) -> None:
        """The profile's checks of the program and its runtime, a build among them (blocking: in a thread).
        Where the session `starts_early`, its adapter starts meanwhile. Whatever fails, the session is closed."""
        connecting = asyncio.ensure_future(self.connect()) if self.starts_early else None
        try:
            self.target, self.runtime = await asyncio.to_thread(self.profile.ready, self.target)
            if connecting is not None:
                await connecting
        except BaseException:
            if connecting is not None:
                connecting.cancel()
                await asyncio.gather(connecting, return_exceptions=True)
            await self.close()
            raise

    async def connect(self) -> None:
        """Start the adapter and `initialize` it: nothing of the program is sent yet, and `close` undoes it."""
        plan = self._plan = self._plan or self.profile.plan(self.target)
        self.launched = plan.request == "launch"
        self.all_in.writes_marks = self.profile.output.output_mark is not None and self.launched and self.parent_id is None
        try:
            if plan.output_fifo:
                self._pipe = await ProgramPipe.open(plan.output_fifo, functools.partial(self._program_output, "stdout"))
            await self.link.open(plan, self._program_output, self._on_event, self._program_output,
                                 on_child=self._child_announced if self.profile.program.follows_children else None,
                                 terminal_exit=self._terminal_exited)
            if self.profile.program.adapter_is_program and (adapter := self.link.adapter_process) is not None:
                self.exits.watch_adapter(adapter)
            await self.link.initialize()
        except BaseException:
            await self.close()
            raise

    async def _child_announced(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Answered at once: until it is, the adapter announces no other child (debugpy)."""
        self.on_child(self, arguments)
        return {}

    def reach(self, plan: AdapterStart, runtime: str | None) -> None:
        """Reach the adapter as `plan` says instead of as the profile plans it for the target (a child
        process's session, on a connection of its own to its parent's adapter)."""
        self._plan, self.runtime = plan, runtime

    async def start(self, initial: list[BreakpointSpec] | None = None) -> None:
        """Run the DAP handshake up to the point where the program runs (or stops on entry)."""
        if not self.link.opened:
            await self.connect()
        assert self._plan is not None
        try:
            await self._handshake(self._plan, initial or [])
        except BaseException:
            await self.close()
            raise
        adapter = self.link.adapter_process
        if self.target.launched and adapter is not None:  # not what was attached to
            with contextlib.suppress(psutil.Error):
                watched = psutil.Process(adapter.pid)
                self._guarded = reaper.launched(watched)
                reaper.watch(self._guarded)
                self._guarding = asyncio.ensure_future(reaper.keep_guarding(watched, self._guarded,
                                                                            lambda: self.has_client))
        self.run.started()

    async def _handshake(self, plan: AdapterStart, initial: list[BreakpointSpec]) -> None:
        """Everything after `initialize`, up to the program running (or stopped on entry): launch/attach (sent,
        not awaited: adapters answer it only after configuration) → `initialized` event → breakpoints →
        configurationDone → the launch/attach response. Whichever way it fails, the error says which."""
        request, link = plan.request, self.link
        client = link.client  # held: a launch refused by an adapter that then exits still says why, not TERMINATED
        summoned = startup.summon_process(client, plan.summon) if plan.summon else None
        started = client.send(request, plan.arguments)
        await startup.first_of(link.initialized.wait(), started, summoned, closed=link.wait_closed(),
                               failed=self.start_failed.wait(), limit=self.profile.launch.launch_timeout,
                               what=f"'{request}' / initialized", why=self._why_not_started)
        for spec in initial:
            self.register(spec)
        self.stops.hold_at_entry(self.target)
        await self.breakpoints.sync_everything(self.tolerant_request)
        for command, arguments in self.profile.launch.configuration:
            await self.tolerant_request(command, arguments)
        untold_core = self.target.mode == "core" and not self.profile.launch.core_stop_told
        if self.capabilities.get("supportsConfigurationDoneRequest"):
            await (self.tolerant_request("configurationDone", {}) if untold_core else client.request("configurationDone"))
        try:
            await client.wait(request, started, self.profile.launch.launch_timeout)
        except Failure as exc:
            raise self._why_not_started(exc) from None
        if untold_core:
            self._stopped(await startup.core_stop(self.link, self.profile.launch.core_signal))
        connected = self.run.process.get("systemProcessId")
        if plan.summon is not None and connected is not None and connected != plan.summon.process_id:
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {connected} connected to the adapter instead of "
                             f"process {plan.summon.process_id}; not debugging it")

    def _why_not_started(self, exc: BaseException | None) -> BaseException:
        """A start that failed (`exc`, or None: the adapter gone or its failure only printed), in words."""
        if exc is None:
            if self.start_failed.is_set():
                return DebugError(ErrorCode.ADAPTER_FAILED, f"{self.profile.name} could not start: "
                                  f"{startup.failure_lines(self.output.read(0, 20_000).text)}")
            return DebugError(ErrorCode.ADAPTER_FAILED, self.link.close_reason or "adapter gone")
        return startup.explained(exc, self.profile.launch.build_failure_markers, self.output.read(0, 8000).text)

    async def ended(self, most: float = 1.0) -> None:
        """Once the program has ended, wait (a little) until its last output is in, and (for up to
        `exit_code.WAITED_WITHIN` seconds) its exit code where it is still on its way."""
        if self._closing is not None and not self._closing.done():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._closing), most)
        await self.exits.waited()  # js-debug says a program ended before its process has (Jest's, closing its workers)

    async def _release_adapter(self) -> None:
        """The debuggee is gone: let the adapter go too, once the output it still forwards is in."""
        if self.link.connected:
            await self.output.quiet(0.05, 1.0)
        if self.link.program_ending:  # js-debug's launcher ends with its program's target, before its process
            await self.link.programs_ended(WAITED_WITHIN)
        await self.link.disconnect(terminate=True, timeout=0.5)
        await self.link.close()

    async def close(self, by: str | None = None) -> None:
        """End the debuggee (unless attached) and the adapter; reap every child process. `by`: the call
        doing it, for the calls still waiting on this session to say instead of the exit code it causes."""
        if by is not None:
            for session in (self, *self.sharers):  # the program this one launched ends with it
                session.run.ending(by)
        self.recorder.cancel()
        if self.launched and not self.profile.program.ends_program:
            await self.link.end_started()
        if self.capabilities:  # it answered `initialize`
            await self.link.disconnect(terminate=self.launched and self.profile.program.ends_program, timeout=3)
        await self.link.close()
        if self._closing is not None:
            with contextlib.suppress(BaseException):
                await self._closing
        if self._guarding is not None:
            self._guarding.cancel()
        self.exits.close()
        if self._pipe is not None:  # once: a failed start closes, and a kept session is closed again later
            self._pipe, pipe = None, self._pipe
            pipe.close()
        reaper.forget(self._guarded)
        self.run.ended()

    async def let_go_of_entry(self) -> None:
        """The program ended before its entry function ran: forget the stand-in breakpoint of `stopOnEntry`."""
        if (bp := self.stops.give_up_entry()) is not None:
            await self._drop_stand_in(bp)

    async def _drop_stand_in(self, bp: Breakpoint) -> None:
        if self.breakpoints.discard(bp) and self.state != "terminated":
            with contextlib.suppress(Failure):
                await self.remove_breakpoints([bp])

    async def wait_for_stop(self, since: int, timeout: float) -> bool:
        """Wait until a stop after stop number `since`, or the end; False if `timeout` ran out."""
        return await self.run.wait_for_stop(since, timeout)

    # -- execution ---------------------------------------------------------------------------

    def require_paused(self) -> StopInfo:
        if self.state == "terminated":
            raise DebugError(ErrorCode.TERMINATED, self.ended_text())
        if self.state != "paused" or self.stop_info is None:
            raise DebugError(ErrorCode.NOT_PAUSED, "the program is running; use `pause` first")
        if (owed := self.link.owing()) is not None:
            raise owed.refusal(self.profile.name, "")
        return self.stop_info

    def thread(self, thread_id: int | None) -> int:
        if thread_id is not None:
            return thread_id
        if self.stop_info and self.stop_info.thread_id is not None:
            return self.stop_info.thread_id
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "no current thread; pass threadId")

    async def known_thread(self, thread_id: int | None) -> int:
        """`thread`, checked against the program's threads first: debugpy dies of an unknown id in a step."""
        if thread_id is None or (self.stop_info is not None and thread_id == self.stop_info.thread_id) \
                or not self.profile.stops.lists_every_thread:
            return self.thread(thread_id)
        ids = [t.id for t in (await self.request("threads")).threads]
        if thread_id not in ids:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"unknown threadId {thread_id}; the program's threads: "
                             f"{', '.join(map(str, ids[:20])) or 'none'}")
        return thread_id

    async def resume(self, thread_id: int | None) -> int:
        """Send `continue`; returns the stop count to wait beyond."""
        if self.state == "running":
            if self.run.stepping and self.stop_info is not None and self.has_client:
                # a step that has not landed: every thread goes on and the step is given up. Not awaited:
                # debugpy answers a `continue` only once some thread resumes, which a running one never does
                unlogged(self.link.send("continue", {"threadId": self.thread(None)}))
                self.run.continuing_past_step()
            return self.stop_count
        self.require_paused()
        single = thread_id is not None
        await self._library_as_before()
        if single and not self.capabilities.get("supportsSingleThreadExecutionRequests"):
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"{self.profile.name} resumes all threads together "
                             "(no supportsSingleThreadExecutionRequests); omit threadId")
        return await self._move("continue", {"threadId": await self.known_thread(thread_id), "singleThread": single})

    async def step(self, mode: Literal["over", "in", "out"], thread: int) -> int:
        """Step `thread` (a known one: see `known_thread`); returns the stop count to wait beyond."""
        self.require_paused()
        await self.stops.step_starts(self.link, thread)
        return await self._move({"over": "next", "in": "stepIn", "out": "stepOut"}[mode], {"threadId": thread})

    async def move_back(self, how: Literal["back", "backOut", "continue"], thread: int, frame: int) -> int:
        """Back through the recording: a line, out to the caller's line, or to the previous stop; the profile's
        reverse command where it has one (sent as dap2mcp's own `evaluate`), else DAP's `stepBack`. Returns the stop
        count to wait beyond."""
        self.require_paused()
        rules = self.profile.reverse
        command = {"back": rules.step_back, "backOut": rules.back_out, "continue": rules.reverse_continue}[how]
        name = "reverseContinue" if how == "continue" else "stepBack"
        if how != "continue":
            await self.stops.step_starts(self.link, thread)
        if command is None:
            return await self._move(name, {"threadId": thread}, answered=rules.step_back_answered)
        return await self._move(name, {"threadId": thread},
                                sent=("evaluate", {"expression": command, "frameId": frame, "context": "repl"}))

    async def _move(self, command: str, arguments: dict[str, Any],
                    sent: tuple[str, dict[str, Any]] | None = None, answered: bool = True) -> int:
        """Let the program run; it counts as running from now, so waiters see the next stop. `sent`: the request
        that moves it, where that is not `command` itself (a debugger's own reverse command, by `evaluate`).
        `answered`: False where the adapter answers the request only when it refuses it (rdbg's `stepBack`): the
        request's answer or the stop, whichever comes first."""
        self.recorder.hold_new()
        await self.recorder.settle()
        await self.breakpoints.drop_spent(self.tolerant_request)  # spent while the program ran: removed while it stands
        await self.stops.move_starts(self.link, arguments["threadId"], self._on_breakpoint_line())
        since = self.run.moving(command)
        try:
            if answered:
                await self.request(*(sent or (command, arguments)))
            else:
                said = self.link.send(command, arguments)
                stop = asyncio.ensure_future(self.run.wait_for_stop(since, 10.0))
                await asyncio.wait((said, stop), return_when=asyncio.FIRST_COMPLETED)
                stop.cancel()
                if said.done():
                    said.result()  # a refusal raises
                else:
                    unlogged(said)
        except Failure:
            if self.run.move_refused(since):
                self.recorder.allow_new()
            raise
        return since

    def _on_breakpoint_line(self) -> bool:
        """Whether the stop's innermost frame is on a line one of the agent's line breakpoints is on (True where
        the stop's view is not at hand)."""
        view = self.recorder.last_view
        if view is None or not view.frames:
            return True
        top = view.frames[0]
        return self.breakpoints.line_breakpoint_at(top.file, top.line)

    async def pause(self, thread_id: int | None) -> int:
        since = self.stop_count
        if self.state == "terminated":
            raise DebugError(ErrorCode.TERMINATED, self.ended_text())
        if self.state == "paused":
            return since - 1
        thread = thread_id
        if thread is None:
            threads = (await self.request("threads")).threads
            if not threads:
                raise DebugError(ErrorCode.NOT_PAUSED, "the program has no threads to pause")
            thread = next((t.id for t in threads if t.id > 0), threads[0].id)
        else:
            thread = await self.known_thread(thread)
        self.run.pause_asked()
        try:
            await self.request("pause", {"threadId": thread})
        except Failure:
            self.run.pause_refused()
            raise
        self.run.pause_sent(thread)
        return since

    @property
    def passes_over_library(self) -> bool:
        """The adapter keeps library code apart: it neither steps nor pauses there (debugpy with justMyCode)."""
        return self.profile.stops.steps_over_library and self.target.just_my_code

    async def pause_in_library(self, since: int, timeout: float) -> bool:
        """A pause that did not land: the thread runs library code (a server's loop), where debugpy does not
        stop. The files on the program's stacks count as its own from now to the next `continue` (or until
        `timeout` passes without a stop), so the stop shows the library code it stopped in. False
        where the files could not be told, or the program stopped meanwhile: the caller waits on."""
        pid = self.run.process.get("systemProcessId")
        files = await asyncio.to_thread(self.profile.running_files, pid) if isinstance(pid, int) else []
        if not files or self.stop_count > since or self.state != "running":
            return False
        await self.breakpoints.own_code_for_now(self.tolerant_request, files)
        landed = False
        try:  # asked again: the library frames already running were told not to trace themselves
            await self.request("pause", {"threadId": self.run.paused_thread})
            landed = await self.wait_for_stop(since, timeout) and self.state == "paused"
            return landed
        finally:
            if not landed:
                await self._library_as_before()

    async def _library_as_before(self) -> None:
        """Library files made the program's own for a pause count as library code again. Not at the stop: a
        step from a library frame, the files no longer the program's own, ran to the next line of the program's
        and reported that, one frame, while the thread was still in the library's loop; at the next `continue`."""
        if self.has_client and self.breakpoints.own_for_now:
            with contextlib.suppress(Failure):
                await self.breakpoints.own_code_as_before(self.tolerant_request)

    # -- breakpoints -------------------------------------------------------------------------

    def register(self, spec: BreakpointSpec, temporary: bool = False, bp_id: int | None = None) -> Breakpoint:
        return self.breakpoints.register(spec, self.target.cwd, temporary=temporary, bp_id=bp_id)

    async def update_breakpoint(self, bp_id: int, changes: BreakpointChange) -> Breakpoint:
        """Change a breakpoint's options in place (enable, disable, a new condition); it keeps its id."""
        bp, before = self.breakpoints.change(bp_id, changes)
        if self.state == "terminated":
            self.breakpoints.kept_for_restart(bp)
        elif self.has_client:
            try:
                await self.breakpoints.sync(self.tolerant_request, [bp])
            except Failure:
                self.breakpoints.undo_change(bp, before)
                raise
        return bp

    async def add_breakpoint(self, spec: BreakpointSpec, *, temporary: bool = False,
                             bp_id: int | None = None,
                             resolve: Callable[[Breakpoint], Awaitable[None]] | None = None) -> Breakpoint:
        """`bp_id`: the id the breakpoint has in another session of the program (a child process's);
        `resolve`: finds what a watch names in the paused program (`watches.resolve`), before it is sent."""
        bp = self.register(spec, temporary, bp_id)
        if self.state == "terminated":  # kept for `restart`
            if temporary:
                self.breakpoints.discard(bp)
                raise DebugError(ErrorCode.TERMINATED, self.ended_text())
            self.breakpoints.kept_for_restart(bp)
            return bp
        try:
            if bp.kind == "watch":
                if self.state != "paused" or resolve is None:
                    raise DebugError(ErrorCode.NOT_PAUSED, f"a watch is resolved in a paused frame: stop the program "
                                     f"(`pause`, a breakpoint) where {bp.watch!r} can be named, then set it")
                await resolve(bp)
            await self.breakpoints.sync(self.tolerant_request, [bp])
        except Failure:
            self.breakpoints.discard(bp)
            raise
        return bp

    async def remove_breakpoints(self, removed: list[Breakpoint]) -> None:
        if self.has_client:
            await self.breakpoints.sync(self.tolerant_request, removed)

    async def _place_function(self, name: str) -> FunctionPlace:
        return await asyncio.to_thread(self.profile.function_place, name, self.target)

    # -- what the program is -----------------------------------------------------------------

    def own_code(self, frame: Frame) -> bool:
        """Whether a frame is the program's own code, for the focus of a context (see `inspect.is_own`)."""
        return is_own(frame, self.profile.stops.runtime_frames, self.target.library)

    def library_file(self, path: object) -> bool:
        """Whether a loaded file is not the program's own: the runtime's (`<node_internals>`, GOROOT), a library's
        (`AdapterProfile.library_files`), or no file here at all."""
        if not isinstance(path, str) or not os.path.isfile(path) or path.startswith((*self.target.library, TOOLING)):
            return True
        return self.profile.library_files is not None and bool(self.profile.library_files.search(path))

    def check_frame(self, frame_id: int) -> int:
        self.require_paused()
        if frame_id not in self.frames:
            raise DebugError(ErrorCode.INVALID_ARGUMENT,
                             f"unknown frameId {frame_id}; use a frame id from `context` at this stop")
        return frame_id

    @property
    def exit_unreported(self) -> bool:
        """The program was attached to (by pid, or where an adapter or an inspector listens), not launched: debugpy
        and js-debug report an exit code only for a program they launched, and nothing here is its parent to
        read it. A child process's session reads its process's own."""
        first = self.launcher or self
        return first.parent_id is None and not first.launched and first.target.mode in ("attach", "connect")

    def ended_text(self) -> str:
        """How the program ended, in words."""
        run = self.run
        if run.start_failure is not None:
            return f"the program could not be started: {run.start_failure}"
        if (signum := run.last_signal()) and run.exit_code == killed_by(signum[1]):
            return f"the program was killed by signal {signum[0]} (exit code {run.exit_code}, as a shell reports it)"
        if run.exit_code is not None:
            return f"the program exited with code {run.exit_code}"
        if self.exit_unreported and run.state == "terminated":
            return (f"the program ended; its exit code is not known: {self.profile.name} reports none for a program "
                    "it attached to (only for one it launched)")
        if self.link.close_reason and run.state == "terminated":
            return f"the debug session ended: {self.link.close_reason}"
        return "the program has terminated"
