"""One debug session: the adapter handshake, the run/pause state machine, and waiting for stops.

Nothing here holds a lock across a wait: a `continue` waiting for a stop and a `pause` or
`context` issued meanwhile all proceed, and all wake on the same `stopped` event.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal

import psutil

from .. import processes, reaper
from ..adapters import AdapterProfile, AdapterStart, Target
from ..background import unlogged
from ..dap import DapClient
from ..errors import DebugError, ErrorCode
from ..program_pipe import ProgramPipe
from ..snapshots import Snapshot
from . import events, hints
from .breakpoints import Breakpoint
from .inspect import Limits, is_own
from .models import Context, Frame, Output, State, StopInfo
from .output import OutputBuffer, TracebackCutter
from .owed import Owed
from .paused import focused_frame_id, paused_context
from .quirks import Quirks
from .recorder import StopRecorder
from .registry import BreakpointRegistry
from .sources import SourceAllowList
from .specs import BreakpointChange, BreakpointSpec
from .startup import handshake, initialize, open_transport

log = logging.getLogger(__name__)


_PRINTED = re.compile(r"^([A-Za-z_]\w*) = (.*)$")
"""A line of gdb's `info locals`: a name, and its value as gdb prints it."""


class DebugSession:
    def __init__(self, target: Target, profile: AdapterProfile, *, carried: list[Breakpoint] | None = None,
                 snapshots: list[Snapshot] | None = None, limits: Limits | None = None) -> None:
        self.target = target
        self.profile = profile
        self.limits = limits or Limits()
        rereads = target.mode == "source" or (target.mode == "binary" and profile.language == "python")
        self.breakpoints = BreakpointRegistry(profile, carried or [], capabilities=lambda: self.capabilities, edited=rereads,
                                              place_function=self._place_function,
                                              function_filters=lambda: profile.function_filters(self.target))
        self.notice: Callable[[dict[str, Any]], None] = lambda data: None
        """Where breakpoint and tracepoint hits are announced (the server forwards them to the client)."""
        self.changed: Callable[[], None] = lambda: None
        """Called whenever something a resource shows may have changed (the server compares and notifies)."""
        self.sources = SourceAllowList(breakpoint_suffixes=profile.extensions)
        self.output = OutputBuffer()
        self.tracebacks = TracebackCutter(profile.launcher_frames)
        self.adapter_output = OutputBuffer(keep_chars=100_000)
        self.state: State = "starting"
        self.capabilities: dict[str, Any] = {}
        self.stop_info: StopInfo | None = None
        self.stop_count = 0
        self.exit_code: int | None = None
        self.ended_by: str | None = None
        """The call that ended the program before it ended by itself (`stop`, a new `debug`)."""
        self.start_failure: str | None = None
        """Why a `restart` could not start the program; the session stays, ended, for the next `restart`."""
        self.process: dict[str, Any] = {}
        """The adapter's `process` event: the debuggee's name and system pid."""
        self._children_named: set[int] = set()
        """The program's child processes that a result has already named as running undebugged."""
        self._guarded: dict[int, str] = {}
        """What the orphan guard watches for this session: pid, start time."""
        self._guarding: asyncio.Future[None] | None = None
        self._paused_thread: int | None = None
        """The thread the last `pause` asked to stop."""
        self._pipe: ProgramPipe | None = None
        self.runtime: str | None = None
        self.started_at = datetime.now(UTC)
        self.threads_cache: dict[str, Any] | None = None
        """The threads as of the last stop they were read at (the threads resource serves it)."""
        self._client: DapClient | None = None
        self._plan: AdapterStart | None = None
        self._changed = asyncio.Event()
        self.initialized = asyncio.Event()
        self.start_failed = asyncio.Event()
        self._closing: asyncio.Task[None] | None = None
        self.known_frames: dict[int, tuple[int, int]] = {}
        """Frame ids handed out since the last stop, with each one's thread and place in its stack: a
        `frameId` alone names its thread, and cdt-gdb-adapter numbers the frames anew at every stackTrace,
        so an id of an earlier answer is found by its place."""
        self.quirks = Quirks(self)
        self.recent_output = ""
        """The end of the program's output so far, where an adapter's end-of-program text is looked for."""
        self._owed: Owed | None = None
        """An answer the adapter owes past its timeout (see owed.py): the calls that would wait behind it are
        refused at once until it comes."""
        self.signalled: int | None = None
        """The signal `stop` sent the program to end it (ending.py), by which its exit code is read."""
        self._evaluation_limit: float | None = None
        """How long the debugger was last told to let an evaluation run (see `limit_evaluations`)."""
        self.launched = target.mode in ("source", "binary")
        self.recorder = StopRecorder(self, lambda: self.capabilities, profile.hidden_variables, self.limits,
                                     carried=snapshots, cut_markers=profile.cut_markers,
                                     helper=profile.helper_source(), own=self.own_code,
                                     steady_ids=profile.steady_ids, scopes_by_frame=profile.scopes_by_frame,
                                     scopes_on_request=profile.scopes_on_request, relist=self.unlisted_variables,
                                     lists_all_children=profile.lists_all_children, shapes=profile.values)
        self.recorder.recorded = lambda: self.changed()

    # -- state changes, driven by adapter events ---------------------------------------------

    def notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()
        self.changed()

    def ended_by_adapter(self) -> None:
        """The adapter says the program is gone (or the connection to it is): let go of the adapter."""
        if self.state != "terminated":
            self.state = "terminated"
            self._closing = asyncio.ensure_future(self._release_adapter())

    def program_runs(self) -> bool:
        """Whether the debuggee still runs, where that can be told (the program may print gdb's end text)."""
        if self.target.process_id is not None:
            return processes.pid_alive(self.target.process_id)
        adapter = self._client.transport.process if self._client is not None else None
        if adapter is None or self.profile.inferior_depth is None:
            return False
        return bool(processes.running_below(adapter.pid, self.profile.inferior_depth))

    def program_pids(self) -> list[int]:
        """The launched program's process id: as the adapter names it, else found at `inferior_depth` below
        the adapter (the shallowest there: the program, not what it started)."""
        if pid := self.process.get("systemProcessId"):
            return [int(pid)]
        adapter = self._client.transport.process if self._client is not None else None
        if adapter is None or self.profile.inferior_depth is None:
            return []
        below = processes.running_below(adapter.pid, self.profile.inferior_depth)
        pids = {p.pid for p in below}
        return [p.pid for p in below if _parent(p) not in pids]

    def new_children(self) -> list[str]:
        """The processes the program has started, not named before, as `pid (command)`: they run without the
        debugger (debugpy's `subProcess` is off), so their breakpoints never stop."""
        found = []
        for pid in self.program_pids():
            with contextlib.suppress(psutil.Error):
                program = psutil.Process(pid)
                for child in program.children(recursive=True):
                    if child.pid not in self._children_named:
                        self._children_named.add(child.pid)
                        with contextlib.suppress(psutil.Error):
                            command = child.cmdline()
                            said = "the program again" if command == program.cmdline() else \
                                " ".join(command)[:100] or child.name()
                            found.append(f"{child.pid} ({said})")
        return found

    @property
    def has_client(self) -> bool:
        """Connected to an adapter that is still there."""
        return self._client is not None and not self._client.closed

    async def _place_function(self, name: str) -> tuple[str, str | None]:
        return await asyncio.to_thread(self.profile.function_place, name, self.target)

    # -- start and end -----------------------------------------------------------------------

    @property
    def client(self) -> DapClient:
        if self._client is None or self._client.closed:
            raise DebugError(ErrorCode.TERMINATED, "the debug session has ended; use `restart` or `debug`")
        return self._client

    async def request(self, command: str, arguments: dict[str, Any] | None = None, timeout: float = 10.0, *,
                      holds: str | None = None) -> dict[str, Any]:
        """`holds`: what the request runs in the stopped program (an agent's expression), which, when it runs
        past `timeout`, still holds the stopped thread: calls that need it are refused until it answers."""
        client = self.client
        if (owed := self._owing()) is not None and owed.holds_every_request:
            raise owed.refusal(self.profile.name)
        pending = client.send(command, arguments)
        try:
            body = await client.wait(command, pending, timeout)
        except DebugError as exc:  # the adapter's "No more messages" would read as the request's own failure
            if exc.code == ErrorCode.TIMEOUT and (holds is not None or self.profile.answers_in_turn) \
                    and self._owing() is None:  # the first one owed: those sent with it waited behind it
                self._owed = Owed.after_timeout(f"the evaluation of {holds[:200]!r}" if holds is not None
                                                else f"a '{command}' request", pending, timeout,
                                                holds_every_request=self.profile.answers_in_turn)
            if self.ended_by is None or exc.code == ErrorCode.TERMINATED:
                raise
            raise DebugError(ErrorCode.TERMINATED, f"another call ({self.ended_by}) ended the session while '{command}' "
                             "waited for the adapter") from exc
        self.sources.note_response(command, arguments, body)
        if command == "stackTrace":
            if self.profile.stack_page is not None:
                await self.quirks.page_stack(body, arguments or {}, self.profile.stack_page, timeout)
            self.quirks.stack(body, arguments)
        elif command == "exceptionInfo":
            self.quirks.exception_info(body)
        return body

    @property
    def starts_early(self) -> bool:
        """Whether `connect` may run while `profile.ready` still checks the program (see `plans_before_ready`):
        for a launch only, whose adapter is this session's alone; an attach or a connect would reach a
        process or an adapter that the current session may still hold."""
        return self.profile.plans_before_ready and self.target.mode in ("source", "binary")

    async def connect(self) -> None:
        """Start the adapter and `initialize` it: nothing of the program is sent yet, and `close` undoes it."""
        plan = self._plan = self.profile.plan(self.target)
        self.launched = plan.request == "launch"
        try:
            if plan.output_fifo:
                self._pipe = await ProgramPipe.open(plan.output_fifo,
                                                    functools.partial(events.program_output, self, "stdout"))
            transport = await open_transport(plan, functools.partial(events.program_output, self))
            client = DapClient(transport)
            client.on_event(functools.partial(events.on_event, self))
            client.terminal.sink = self.output.append
            client.start()
            self._client = client
            await initialize(self, client)
        except BaseException:
            await self.close()
            raise

    async def start(self, initial: list[BreakpointSpec] | None = None) -> None:
        """Run the DAP handshake up to the point where the program runs (or stops on entry)."""
        if self._client is None:
            await self.connect()
        client, plan = self._client, self._plan
        assert client is not None and plan is not None
        try:
            await handshake(self, client, plan, initial or [])
        except BaseException:
            await self.close()
            raise
        transport = client.transport
        if self.target.mode in ("source", "binary") and transport.process is not None:  # not what was attached to
            with contextlib.suppress(psutil.Error):
                adapter = psutil.Process(transport.process.pid)
                self._guarded = reaper.launched(adapter)
                reaper.watch(self._guarded)
                self._guarding = asyncio.ensure_future(reaper.keep_guarding(adapter, self._guarded,
                                                                            lambda: self.has_client))
        if self.state == "starting":
            self.state = "running"
            self.notify()

    def client_close_reason(self) -> str | None:
        return self._client.close_reason if self._client else None

    async def tolerant_request(self, command: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Initial breakpoints that the adapter rejects become unverified, not a failed start."""
        try:
            return await self.request(command, arguments)
        except DebugError as exc:
            if exc.code != ErrorCode.ADAPTER_ERROR:
                raise
            count = len(arguments.get("breakpoints") or [])
            return {"breakpoints": [{"verified": False, "message": exc.message}] * count}

    async def ended(self, most: float = 1.0) -> None:
        """Once the program has ended, wait (a little) until its last output is in."""
        if self._closing is not None and not self._closing.done():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._closing), most)

    async def _release_adapter(self) -> None:
        """The debuggee is gone: let the adapter go too, once the output it still forwards is in."""
        if self._client is not None and not self._client.closed:
            await self.output.quiet(0.05, 1.0)
        if self._client is not None and not self._client.closed:
            with contextlib.suppress(DebugError):
                await self._client.request("disconnect", {"terminateDebuggee": True}, timeout=0.5)
        if self._client is not None:
            await self._client.close()

    async def close(self, by: str | None = None) -> None:
        """End the debuggee (unless attached) and the adapter; reap every child process. `by`: the call
        doing it, for the calls still waiting on this session to say instead of the exit code it causes."""
        if self.state != "terminated" and by is not None:
            self.ended_by = by
        self.recorder.cancel()
        client = self._client
        if client is not None and not client.closed and self.capabilities:  # it answered `initialize`
            with contextlib.suppress(DebugError):
                await client.request("disconnect", {"terminateDebuggee": self.launched}, timeout=3)
        if client is not None:
            await client.close()
        if self._closing is not None:
            with contextlib.suppress(BaseException):
                await self._closing
        if self._guarding is not None:
            self._guarding.cancel()
        if self._pipe is not None:  # once: a failed start closes, and a kept session is closed again later
            self._pipe, pipe = None, self._pipe
            pipe.close()
        reaper.forget(self._guarded)
        if self.state != "terminated":
            self.state = "terminated"
            self.notify()

    # -- waiting -----------------------------------------------------------------------------

    async def wait_for_stop(self, since: int, timeout: float) -> bool:
        """Wait until a stop after stop number `since`, or the end; False if `timeout` ran out."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self.stop_count <= since and self.state != "terminated":
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                return False
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)
        return True

    # -- execution ---------------------------------------------------------------------------

    def held(self) -> bool:
        """The adapter still owes an answer past its timeout (see owed.py)."""
        return self._owing() is not None

    def _owing(self) -> Owed | None:
        if self._owed is not None and self._owed.paid:
            self._owed = None
        return self._owed

    def require_paused(self) -> StopInfo:
        if self.state == "terminated":
            raise DebugError(ErrorCode.TERMINATED, self._ended_text())
        if self.state != "paused" or self.stop_info is None:
            raise DebugError(ErrorCode.NOT_PAUSED, "the program is running; use `pause` first")
        if (owed := self._owing()) is not None:
            raise owed.refusal(self.profile.name)
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
                or not self.profile.lists_every_thread:
            return self.thread(thread_id)
        ids = [t.get("id") for t in (await self.request("threads")).get("threads") or []]
        if thread_id not in ids:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"unknown threadId {thread_id}; the program's threads: "
                             f"{', '.join(map(str, ids[:20])) or 'none'}")
        return thread_id

    async def resume(self, thread_id: int | None) -> int:
        """Send `continue`; returns the stop count to wait beyond."""
        if self.state == "running":
            if self.quirks.stepping() and self.stop_info is not None and self.has_client:
                # a step that has not landed: every thread goes on and the step is given up. Not awaited:
                # debugpy answers a `continue` only once some thread resumes, which a running one never does
                unlogged(self.client.send("continue", {"threadId": self.thread(None)}))
                self.quirks.moved("continue")
            return self.stop_count
        self.require_paused()
        single = thread_id is not None
        await self._library_as_before()
        if single and not self.capabilities.get("supportsSingleThreadExecutionRequests"):
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"{self.profile.name} resumes all threads together "
                             "(no supportsSingleThreadExecutionRequests); omit threadId")
        return await self._move("continue", {"threadId": await self.known_thread(thread_id), "singleThread": single})

    async def step(self, mode: Literal["over", "in", "out"], thread_id: int | None) -> int:
        info = self.require_paused()
        command = {"over": "next", "in": "stepIn", "out": "stepOut"}[mode]
        thread = await self.known_thread(thread_id)
        if thread != info.thread_id:
            await self._check_steppable(thread)
        return await self._move(command, {"threadId": thread})

    async def _check_steppable(self, thread: int) -> None:
        """Refuse a step that the thread could not take now (the profile's `step_ready_check`): sent, it
        would leave the program held, neither stopped nor running, until the thread ran again."""
        check = self.profile.step_ready_check
        if check is None:
            return
        body, _ = await self.evaluate_own(check.format(thread=int(thread)), await focused_frame_id(self))
        if body.get("result") == "False":  # refused, it cannot tell: step as asked
            stopped = self.stop_info.thread_id if self.stop_info else None
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"thread {thread} is not stopped at a line of code but blocked "
                             "inside a native call (waiting on a lock, a future's result, I/O): "
                             f"{self.profile.name} would carry out the step only once that call returns, and "
                             "hold every other thread until then, so the program would hang. Step the thread "
                             f"that stopped ({stopped}), or set a breakpoint where thread {thread} goes on and "
                             "`continue`")

    async def _move(self, command: str, arguments: dict[str, Any]) -> int:
        """Let the program run; it counts as running from now, so waiters see the next stop."""
        self.recorder.moving = True
        await self.recorder.settle()
        since = self.stop_count
        self.state = "running"
        self.quirks.moved(command)
        self.notify()
        try:
            await self.request(command, arguments)
        except DebugError:
            if self.stop_count == since and self.state == "running":
                self.state = "paused"
                self.recorder.moving = False
            raise
        return since

    async def pause(self, thread_id: int | None) -> int:
        since = self.stop_count
        if self.state == "terminated":
            raise DebugError(ErrorCode.TERMINATED, self._ended_text())
        if self.state == "paused":
            return since - 1
        thread = thread_id
        if thread is None:
            threads = (await self.request("threads")).get("threads") or []
            if not threads:
                raise DebugError(ErrorCode.NOT_PAUSED, "the program has no threads to pause")
            thread = next((t["id"] for t in threads if t.get("id", 0) > 0), threads[0]["id"])
        else:
            thread = await self.known_thread(thread)
        self.quirks.pausing = True
        try:
            await self.request("pause", {"threadId": thread})
        except DebugError:
            self.quirks.pausing = False
            raise
        self._paused_thread = thread
        return since

    @property
    def passes_over_library(self) -> bool:
        """The adapter keeps library code apart: it neither steps nor pauses there (debugpy with justMyCode)."""
        return self.profile.steps_over_library and self.target.just_my_code

    async def pause_in_library(self, since: int, timeout: float) -> bool:
        """A pause that did not land: the thread runs library code (a server's loop), where debugpy does not
        stop. The files on the program's stacks count as its own from now to the next `continue` (or until
        `timeout` passes without a stop), so the stop shows the library code it stopped in. False
        where the files could not be told, or the program stopped meanwhile: the caller waits on."""
        pid = self.process.get("systemProcessId")
        files = await asyncio.to_thread(self.profile.running_files, pid) if isinstance(pid, int) else []
        if not files or self.stop_count > since or self.state != "running":
            return False
        await self.breakpoints.own_code_for_now(self.tolerant_request, files)
        landed = False
        try:  # asked again: the library frames already running were told not to trace themselves
            await self.request("pause", {"threadId": self._paused_thread})
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
            with contextlib.suppress(DebugError):
                await self.breakpoints.own_code_as_before(self.tolerant_request)

    # -- breakpoints -------------------------------------------------------------------------

    def register(self, spec: BreakpointSpec, temporary: bool = False) -> Breakpoint:
        return self.breakpoints.register(spec, self.target.cwd, temporary=temporary)

    async def update_breakpoint(self, bp_id: int, changes: BreakpointChange) -> Breakpoint:
        """Change a breakpoint's options in place (enable, disable, a new condition); it keeps its id."""
        bp, before = self.breakpoints.change(bp_id, changes)
        if self.state == "terminated":
            bp.message = hints.KEPT_FOR_RESTART
        elif self._client is not None and not self._client.closed:
            try:
                await self.breakpoints.sync(self.tolerant_request, [bp])
            except DebugError:
                bp.__dict__.update(before.__dict__)
                raise
        return bp

    async def add_breakpoint(self, spec: BreakpointSpec, *, temporary: bool = False) -> Breakpoint:
        bp = self.register(spec, temporary)
        if self.state == "terminated":  # kept for `restart`
            if temporary:
                self.breakpoints.discard(bp)
                raise DebugError(ErrorCode.TERMINATED, self._ended_text())
            bp.message = hints.KEPT_FOR_RESTART
            return bp
        try:
            await self.breakpoints.sync(self.tolerant_request, [bp])
        except DebugError:
            self.breakpoints.discard(bp)
            raise
        return bp

    async def remove_breakpoints(self, removed: list[Breakpoint]) -> None:
        if self._client is not None and not self._client.closed:
            await self.breakpoints.sync(self.tolerant_request, removed)

    # -- inspection --------------------------------------------------------------------------

    async def context(self, *, thread_id: int | None = None, frame_id: int | None = None,
                      max_frames: int = 20, consume_output: bool = False, with_threads: bool = True,
                      scopes: frozenset[str] = frozenset(), threads_from: int = 0) -> Context:
        """`scopes`: names of scopes to list that a stop only names (Python's Globals, registers);
        `threads_from`: the first thread listed, by its place in the program's list (a page past the first)."""
        ctx = None
        if self.state == "paused" and self.stop_info is not None:
            try:
                ctx = await paused_context(self, self.stop_info, thread_id, frame_id, max_frames, with_threads,
                                           scopes, threads_from)
            except DebugError:
                if self.state != "terminated":  # ended meanwhile (a `stop`): say so instead
                    raise
        if ctx is None:
            ctx = Context(state=self.state)
            if self.state == "terminated":
                ctx = Context(state="terminated", exitCode=self.exit_code, description=self._ended_text())
        take = self.output.take_new if consume_output else self.output.peek_new
        out = take(self.limits.output_chars)
        if out.text or out.truncated:
            ctx.output = out
        said = (self.adapter_output.take_new if consume_output else self.adapter_output.peek_new)(
            self.limits.adapter_output_chars)
        if said.text:
            ctx.adapterOutput = said
        return ctx

    async def console_text(self, command: str, frame_id: int, limit: int) -> Output:
        """What a debugger command (`console_prefix`) printed on the adapter's console, where it goes
        (cdt-gdb-adapter answers the command itself with a line end only)."""
        start = self.adapter_output.size
        await self.request("evaluate", {"expression": command, "frameId": frame_id, "context": "repl"})
        await self.adapter_output.quiet(0.05, 0.5)
        return self.adapter_output.take_from(start, limit)

    async def unlisted_variables(self, frame_id: int, why: str) -> list[dict[str, Any]] | None:
        """A scope the adapter would not list (`why`), read through the debugger's own commands where the profile
        has them (`list_commands`): their names, and each one's value as `evaluate` gives it. None if not."""
        profile = self.profile
        if profile.unlisted_scope is None or not profile.unlisted_scope.search(why):
            return None
        printed: dict[str, str] = {}  # gdb's text of each value: `{5, 0}` where `evaluate` says `[2]`
        for command in profile.list_commands:
            name = None
            for line in (await self.console_text(command, frame_id, 100_000)).text.splitlines():
                if found := _PRINTED.match(line):
                    name = found.group(1)
                    printed.setdefault(name, found.group(2))
                elif name is not None and line.strip():  # a value printed over several lines
                    printed[name] += " " + line.strip()
        variables = []
        for name, value in printed.items():
            body, refused = await self.evaluate_own(name, frame_id)
            if refused is None and body.get("result") not in profile.failed_evaluations:
                variables.append({"name": name, "value": value, "type": body.get("type"),
                                  "variablesReference": body.get("variablesReference") or 0})
        return variables or None

    async def evaluate_own(self, expression: str, frame_id: int, context: str | None = None) -> tuple[dict[str, Any], str | None]:
        """An `evaluate` of dap2mcp's own (a check, a setting, a name looked up): the adapter's answer and None,
        or `{}` and its reason where the adapter refused the expression; a session gone or timed out raises."""
        try:
            return await self.request("evaluate", {"expression": expression, "frameId": frame_id,
                                                   "context": context or self.profile.evaluate_context}), None
        except DebugError as exc:
            if exc.code != ErrorCode.ADAPTER_ERROR:
                raise
            return {}, exc.message

    async def limit_evaluations(self, frame_id: int, seconds: float) -> bool:
        """Have the debugger interrupt an evaluation that runs past `seconds`, where it can (the profile's
        `evaluation_limit`); False where it cannot. The setting stays in the debuggee: it is sent again only
        when it changes."""
        statement = self.profile.evaluation_limit
        if statement is None:
            return False
        if self._evaluation_limit != seconds:
            _, refused = await self.evaluate_own(statement.format(seconds=float(seconds)), frame_id)
            if refused is not None:
                log.info("cannot limit evaluations: %s", refused)
                return False
            self._evaluation_limit = seconds
        return True

    def own_code(self, frame: Frame) -> bool:
        """Whether a frame is the program's own code, for the focus of a context (see `inspect.is_own`)."""
        return is_own(frame, self.profile.runtime_frames, self.target.library)

    def check_frame(self, frame_id: int) -> int:
        self.require_paused()
        if frame_id not in self.known_frames:
            raise DebugError(ErrorCode.INVALID_ARGUMENT,
                             f"unknown frameId {frame_id}; use a frame id from `context` at this stop")
        return frame_id

    def _ended_text(self) -> str:
        if self.start_failure is not None:
            return f"the program could not be started: {self.start_failure}"
        if (signum := events.last_signal(self)) and self.exit_code == processes.killed_by(signum[1]):
            return f"the program was killed by signal {signum[0]} (exit code {self.exit_code}, as a shell reports it)"
        if self.exit_code is not None:
            return f"the program exited with code {self.exit_code}"
        if self._client is not None and self._client.close_reason and self.state == "terminated":
            return f"the debug session ended: {self._client.close_reason}"
        return "the program has terminated"



def _parent(process: psutil.Process) -> int | None:
    try:
        return process.ppid()
    except psutil.Error:
        return None
