"""The DAP handshake that takes a session from a spawned adapter to a running (or stopped) program.

initialize (see `DebugSession.connect`) → launch/attach (sent, not awaited: adapters answer it only after configuration)
→ `initialized` event → breakpoints → configurationDone → the launch/attach response. Whichever
way it fails (an error response, the adapter exiting, a failure it only prints, a timeout), the
error says which.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import TYPE_CHECKING, Any

from .. import processes
from ..background import unlogged
from ..dap import connect_tcp, spawn_listening, spawn_stdio
from ..errors import DebugError, ErrorCode
from .specs import BreakpointSpec

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..adapters import AdapterStart
    from ..adapters.base import Summon
    from ..dap import DapClient, Transport
    from .session import DebugSession

HANDSHAKE_TIMEOUT = 30.0
INJECTING: set[threading.Thread] = set()
"""Threads still inside a process for attach by pid: the server waits for them before it exits,
since its end would detach the process mid-call and crash it."""


async def injections_finished(limit: float) -> None:
    """Wait, at most `limit` seconds, for the injected calls still running to return."""
    deadline = asyncio.get_running_loop().time() + limit
    for thread in list(INJECTING):
        await asyncio.to_thread(thread.join, max(0.0, deadline - asyncio.get_running_loop().time()))

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
        return await spawn_listening(plan.argv, plan.listen, env=env, cwd=plan.cwd, on_output=on_output)
    return await spawn_stdio(plan.argv, env=env, cwd=plan.cwd)


async def initialize(session: DebugSession, client: DapClient) -> None:
    """The first step, which says nothing of the program: it may run before the program is ready."""
    session.capabilities = await client.request(
        "initialize", {**CLIENT_CAPABILITIES, "adapterID": session.profile.adapter_id}, timeout=HANDSHAKE_TIMEOUT)


async def handshake(session: DebugSession, client: DapClient, plan: AdapterStart,
                    initial: list[BreakpointSpec]) -> None:
    """Everything after `initialize`, up to the program running (or stopped on entry)."""
    request = plan.request
    summoned = _summon(client, plan.summon) if plan.summon else None
    started = client.send(request, plan.arguments)
    await _first_of(session, session.initialized.wait(), started, summoned, what=f"'{request}' / initialized")
    for spec in initial:
        session.register(spec)
    session.quirks.hold_at_entry()
    await session.breakpoints.sync_everything(session.tolerant_request)
    for command, arguments in session.profile.configuration:
        await session.tolerant_request(command, arguments)
    if session.capabilities.get("supportsConfigurationDoneRequest"):
        await client.request("configurationDone")
    try:
        await client.wait(request, started, session.profile.launch_timeout)
    except DebugError as exc:
        raise _explained(session, exc) from None
    connected = session.process.get("systemProcessId")
    if plan.summon is not None and connected is not None and connected != plan.summon.process_id:
        raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {connected} connected to the adapter instead of "
                         f"process {plan.summon.process_id}; not debugging it")


def _explained(session: DebugSession, exc: BaseException) -> BaseException:
    """An adapter that builds the program (Delve) fails the launch on a compile error: say so, with the
    compiler's words, which arrive as output before the failed response."""
    if isinstance(exc, DebugError) and any(m in exc.message for m in session.profile.build_failure_markers):
        said = session.output.read(0, 8000).text.strip()
        message = exc.message.replace(" Check the debug console for details.", "")  # Delve's; the details follow
        return DebugError(ErrorCode.BUILD_FAILED, f"{message}\n{said}".strip())
    return exc


def _summon(client: DapClient, summon: Summon) -> asyncio.Future[None]:
    """Once the adapter says where it listens, make the process connect to it, in a thread of its
    own: ptrace blocks, all of one tracee's requests must come from one thread, and an injected
    call is always waited out (cut short, it would crash the process), even after the handshake
    has given up, so the thread must not hold up the server's exit."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def settle(error: BaseException | None) -> None:
        if done.done():
            return
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)

    def inject(host: str, port: int) -> None:
        error: BaseException | None = None
        try:
            summon.inject(host, port)
        except BaseException as exc:  # reported through the future, or (after the handshake) not at all
            error = exc
        INJECTING.discard(threading.current_thread())
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody is waiting any more
            loop.call_soon_threadsafe(settle, error)

    def on_event(event: str, body: dict[str, Any]) -> None:
        if event == summon.event and not done.done():
            thread = threading.Thread(target=inject, args=(str(body.get("host")), int(body.get("port") or 0)),
                                      name="dap2mcp-inject", daemon=True)
            INJECTING.add(thread)
            thread.start()

    client.on_event(on_event)
    return unlogged(done)  # a late failure is not an error to log


async def _first_of(session: DebugSession, awaitable: Any, started: asyncio.Future[Any],
                    summoned: asyncio.Future[None] | None, *, what: str) -> None:
    waiter = asyncio.ensure_future(awaitable)
    closed = asyncio.ensure_future(session.client.wait_closed())
    failed = asyncio.ensure_future(session.start_failed.wait())
    limit = session.profile.launch_timeout
    watched = {waiter, started, closed, failed} | ({summoned} if summoned else set())
    deadline = asyncio.get_running_loop().time() + limit
    while True:
        done, _ = await asyncio.wait(watched, timeout=max(0.0, deadline - asyncio.get_running_loop().time()),
                                     return_when=asyncio.FIRST_COMPLETED)
        if done == {summoned} and summoned.exception() is None:  # injected: now wait for what it brings
            watched.discard(summoned)
            continue
        break
    for task in (waiter, closed, failed):
        task.cancel()
    if summoned is not None and summoned in done and summoned.exception() is not None:
        raise summoned.exception()  # type: ignore[misc]
    if started in done and started.exception() is not None:
        raise _explained(session, started.exception())  # type: ignore[arg-type]
    if failed in done:
        raise DebugError(ErrorCode.ADAPTER_FAILED, f"{session.profile.name} could not start: {_failure_lines(session)}")
    if closed in done:
        raise DebugError(ErrorCode.ADAPTER_FAILED, session.client_close_reason() or "adapter gone")
    if not done:
        raise DebugError(ErrorCode.TIMEOUT, f"debug adapter did not finish {what} within {limit:g}s")


def _failure_lines(session: DebugSession) -> str:
    text = session.output.read(0, 20_000).text
    words = ("failed", "error", "couldn't", "no symbol", "denied", "not permitted")
    lines = [ln.strip()[:200] for ln in text.splitlines() if any(w in ln.lower() for w in words)]
    return " | ".join(dict.fromkeys(lines[:6])) or text.strip()[-600:]
