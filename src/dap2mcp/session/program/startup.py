"""What starting a program takes besides DAP requests: making a process connect to the adapter (attach by
pid), waiting for the first of the handshake's outcomes, and a failed start told in words. The handshake
itself is the session's (`DebugSession._handshake`).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ...background import unlogged
from ...dap import bodies
from ...errors import DebugError, ErrorCode, Failure
from ..stop.inspect import top_frame

if TYPE_CHECKING:
    from ...adapters.base import Summon
    from ...dap import DapClient
    from ..stop.inspect import Requester

INJECTING: set[threading.Thread] = set()
"""Threads still inside a process for attach by pid: the server waits for them before it exits,
since its end would detach the process mid-call and crash it."""


async def injections_finished(limit: float) -> None:
    """Wait, at most `limit` seconds, for the injected calls still running to return."""
    deadline = asyncio.get_running_loop().time() + limit
    for thread in list(INJECTING):
        await asyncio.to_thread(thread.join, max(0.0, deadline - asyncio.get_running_loop().time()))


def explained(exc: BaseException, build_failure_markers: tuple[str, ...], output: str) -> BaseException:
    """An adapter that builds the program (Delve) fails the launch on a compile error: say so, with the
    compiler's words, which arrive as `output` before the failed response."""
    message = getattr(exc, "message", None)
    if isinstance(message, str) and any(m in message for m in build_failure_markers):
        message = message.replace(" Check the debug console for details.", "")  # Delve's; the details follow
        return DebugError(ErrorCode.BUILD_FAILED, f"{message}\n{output.strip()}".strip())
    return exc


def summon_process(client: DapClient, summon: Summon) -> asyncio.Future[None]:
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


async def first_of(awaitable: Awaitable[Any], started: asyncio.Future[Any], summoned: asyncio.Future[None] | None, *,
                   closed: Awaitable[Any], failed: Awaitable[Any], limit: float, what: str,
                   why: Callable[[BaseException | None], BaseException]) -> None:
    """Wait for `awaitable` (the `initialized` event), unless the start fails first: the launch refused
    (`started`), the injection into the process failed (`summoned`), the adapter gone (`closed`), its
    failure printed (`failed`), or `limit` seconds passed. `why` says what a failure means."""
    waiter = asyncio.ensure_future(awaitable)
    gone = asyncio.ensure_future(closed)
    printed = asyncio.ensure_future(failed)
    watched = {waiter, started, gone, printed} | ({summoned} if summoned else set())
    deadline = asyncio.get_running_loop().time() + limit
    while True:
        done, _ = await asyncio.wait(watched, timeout=max(0.0, deadline - asyncio.get_running_loop().time()),
                                     return_when=asyncio.FIRST_COMPLETED)
        if done == {summoned} and summoned.exception() is None:  # injected: now wait for what it brings
            watched.discard(summoned)
            continue
        break
    for task in (waiter, gone, printed):
        task.cancel()
    if summoned is not None and summoned in done and summoned.exception() is not None:
        raise summoned.exception()  # type: ignore[misc]
    if started in done and started.exception() is not None:
        raise why(started.exception())
    if printed in done or gone in done:
        raise why(None)
    if not done:
        raise DebugError(ErrorCode.TIMEOUT, f"debug adapter did not finish {what} within {limit:g}s")


def failure_lines(text: str) -> str:
    """The lines of an adapter's output that say why it could not start."""
    words = ("failed", "error", "couldn't", "no symbol", "denied", "not permitted")
    lines = [ln.strip()[:200] for ln in text.splitlines() if any(w in ln.lower() for w in words)]
    return " | ".join(dict.fromkeys(lines[:6])) or text.strip()[-600:]


async def core_stop(adapter: Requester, signal_expression: str | None) -> bodies.StoppedBody:
    """The `stopped` body of a core's state, where the adapter tells none: its first thread, and the signal that
    ended the program (`signal_expression` gives its number) where the core records one."""
    threads = (await adapter.request("threads")).threads
    body = bodies.StoppedBody(reason="core", threadId=threads[0].id if threads else None, allThreadsStopped=True)
    with contextlib.suppress(Failure, ValueError, TypeError):
        if signal_expression is None:
            return body
        top = await top_frame(adapter, body.threadId)
        said = await adapter.request("evaluate", {"expression": signal_expression,
                                                  "frameId": top.id if top else None, "context": "watch"})
        number = int(str(said.get("result", "")).strip())
        body.description = f"signal {signal.Signals(number).name}"
    return body
