"""The link to one debug adapter: the connection, `initialize`, the capabilities the adapter announced, and
requests whose failures come back as types (`dap.errors`). The bodies dap2mcp reads most are read into their
types here, as they arrive (`dap.bodies`): responses by command, events by name.

The link alone writes the capabilities (from `initialize`, then `capabilities` events) and alone knows
which answer the adapter still owes past its timeout (`owed.py`), so a request that would only wait
behind it is refused at once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, Literal, overload

from ... import processes
from ...adapters import AdapterProfile, AdapterStart
from ...dap import AdapterTimedOut, DapClient, Transport, bodies, connect_tcp, spawn_listening, spawn_stdio
from ...dap.client import EventHandler, ReverseHandler
from ...errors import DebugError, ErrorCode, Failure
from .owed import Owed

HANDSHAKE_TIMEOUT = 30.0
CLIENT_CAPABILITIES = {
    "clientID": "dap2mcp", "clientName": "dap2mcp", "pathFormat": "path", "linesStartAt1": True,
    "columnsStartAt1": True, "supportsVariableType": True, "supportsRunInTerminalRequest": True,
    "supportsProgressReporting": False, "supportsInvalidatedEvent": False, "supportsMemoryReferences": True,
    "locale": "en-us",
}


async def open_transport(plan: AdapterStart, on_output: Callable[[str, str], None]) -> Transport:
    """Reach the adapter the way its profile says: its stdio, the port it announces, or a given address."""
    if plan.address and not plan.argv:
        return await connect_tcp(*plan.address)
    env = processes.environ_with(plan.env)
    if plan.listen is not None:
        return await spawn_listening(plan.argv, plan.listen, env=env, cwd=plan.cwd, on_output=on_output,
                                     announced_on=plan.listen_on)
    return await spawn_stdio(plan.argv, env=env, cwd=plan.cwd)


class Link:
    def __init__(self, profile: AdapterProfile) -> None:
        self.profile = profile
        self.capabilities: dict[str, Any] = {}
        self.initialized = asyncio.Event()
        """The adapter's `initialized` event came: it takes breakpoints and configuration now."""
        self._client: DapClient | None = None
        self._owed: Owed | None = None
        self._disconnect: asyncio.Future[dict[str, Any]] | None = None

    async def open(self, plan: AdapterStart, on_output: Callable[[str, str], None], on_event: EventHandler,
                   terminal_output: Callable[[str, str], None], on_child: ReverseHandler | None = None,
                   terminal_exit: Callable[[int, int], None] | None = None) -> None:
        """Start or reach the adapter. `on_output`: what an adapter prints outside DAP (Delve's debuggee);
        `terminal_output`, `terminal_exit`: what a program started through `runInTerminal` prints, and its end
        (pid, returncode); `on_child`: answers the `startDebugging` of a child process (see
        `AdapterProfile.program.follows_children`)."""
        client = DapClient(await open_transport(plan, on_output))
        self._disconnect = None
        client.on_event(lambda event, body: on_event(event, bodies.event(event, body)))
        client.terminal.sink = terminal_output
        if terminal_exit is not None:
            client.terminal.exited = terminal_exit
        if on_child is not None:
            client.on_reverse_request("startDebugging", on_child)
        client.start()
        self._client = client

    async def initialize(self) -> None:
        """The first request, which says nothing of the program: it may run before the program is ready."""
        self.capabilities = self._kept(await self.client.request(
            "initialize", {**CLIENT_CAPABILITIES, "adapterID": self.profile.adapter_id,
                           "supportsStartDebuggingRequest": self.profile.program.follows_children},
            timeout=HANDSHAKE_TIMEOUT))

    def on_initialized(self, body: dict[str, Any]) -> None:
        self.initialized.set()

    def on_capabilities(self, body: dict[str, Any]) -> None:
        self.capabilities.update(self._kept(body.get("capabilities") or {}))

    def _kept(self, announced: dict[str, Any]) -> dict[str, Any]:
        """What the adapter announces, but for what it does not do (`ProgramRules.untrue_capabilities`)."""
        return {name: value for name, value in announced.items() if name not in self.profile.program.untrue_capabilities}

    # -- the connection ----------------------------------------------------------------------

    @property
    def client(self) -> DapClient:
        if self._client is None or self._client.closed:
            raise DebugError(ErrorCode.TERMINATED, "the debug session has ended; use `restart` or `debug`")
        return self._client

    @property
    def opened(self) -> bool:
        """The adapter was reached (it may have gone since)."""
        return self._client is not None

    @property
    def connected(self) -> bool:
        """Connected to an adapter that is still there."""
        return self._client is not None and not self._client.closed

    @property
    def close_reason(self) -> str | None:
        return self._client.close_reason if self._client is not None else None

    @property
    def address(self) -> tuple[str, int] | None:
        """Where the adapter was reached over TCP (a child's session connects there too, unless told otherwise)."""
        if self._client is None:
            return None
        peer = self._client.transport.writer.get_extra_info("peername")
        return (str(peer[0]), int(peer[1])) if isinstance(peer, tuple) and len(peer) >= 2 else None

    @property
    def adapter_process(self) -> asyncio.subprocess.Process | None:
        """The adapter's process, where dap2mcp started it."""
        return self._client.transport.process if self._client is not None else None

    @property
    def started_processes(self) -> list[int]:
        """The adapter's process, where dap2mcp started it, and those it had dap2mcp start (`runInTerminal`)."""
        if self._client is None:
            return []
        adapter = self._client.transport.process
        return ([adapter.pid] if adapter is not None else []) + [p.pid for p in self._client.terminal.processes]

    @property
    def program_ending(self) -> bool:
        """A program it had dap2mcp start (`runInTerminal`) is running still, or its end is not told yet."""
        return self._client is not None and self._client.terminal.ending

    async def programs_ended(self, within: float) -> None:
        """Wait up to `within` seconds for the programs it had dap2mcp start to end by themselves."""
        if self._client is not None:
            await self._client.terminal.ended(within)

    async def wait_closed(self) -> None:
        if self._client is not None:
            await self._client.wait_closed()

    async def disconnect(self, terminate: bool, timeout: float) -> None:
        """Ask the adapter to let go of the program (and end it, `terminate`); whatever it answers, it is let go.
        Asked once per connection, a second call waiting for the first's answer: debugpy's adapter dies of a
        second `disconnect` (it answers on a stream the first one closed), and every other session of the
        program (its child processes) with it."""
        if self._disconnect is None:
            if not self.connected:
                return
            self._disconnect = self.client.send("disconnect", {"terminateDebuggee": terminate})
        if self._client is not None:
            with contextlib.suppress(Failure):
                await self._client.wait("disconnect", self._disconnect, timeout)

    async def end_started(self) -> None:
        """End the programs started for the adapter (`runInTerminal`) and whatever they started."""
        if self._client is not None:
            await self._client.terminal.close()

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()

    # -- requests ----------------------------------------------------------------------------

    def send(self, command: str, arguments: dict[str, Any] | None = None) -> asyncio.Future[dict[str, Any]]:
        """Send without waiting for the answer (a `launch` answered after configuration, a `continue` a running
        thread never answers)."""
        return self.client.send(command, arguments)

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
        """The answer's body, read into its type where it has one (`bodies.RESPONSES`). `holds`: what the request
        runs in the stopped program (an agent's expression), which, when it runs past `timeout`, still holds the
        stopped thread: calls that need it are refused until it answers."""
        client = self.client
        if (owed := self.owing()) is not None and owed.holds_every_request:
            raise owed.refusal(self.profile.name, command)
        pending = client.send(command, arguments)
        try:
            return bodies.response(command, await client.wait(command, pending, timeout))
        except AdapterTimedOut:
            if (holds is not None or self.profile.program.answers_in_turn) and self.owing() is None:
                # the first one owed: those sent with it waited behind it
                self._owed = Owed.after_timeout(f"the evaluation of {holds[:200]!r}" if holds is not None
                                                else f"a '{command}' request", pending, timeout,
                                                holds_every_request=self.profile.program.answers_in_turn)
            raise

    def owing(self) -> Owed | None:
        """The answer the adapter still owes past its timeout, if one is."""
        if self._owed is not None and self._owed.paid:
            self._owed = None
        return self._owed
