"""Requests, responses and events over one DAP connection.

Everything above this module deals in commands, argument dicts and event bodies; the bytes,
the sequence numbers and the failure of a dying adapter stay here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..background import unlogged
from .errors import AdapterGone, AdapterRefused, AdapterTimedOut
from .framing import FramingError, Message, encode, read_message
from .terminal import TerminalRunner
from .trace import from_environment
from .transport import Transport

log = logging.getLogger(__name__)

EventHandler = Callable[[str, dict[str, Any]], None]
ReverseHandler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]

DEFAULT_TIMEOUT = 10.0


class DapClient:
    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.terminal = TerminalRunner()
        self._seq = 0
        self._pending: dict[int, tuple[str, asyncio.Future[dict[str, Any]]]] = {}
        self._event_handlers: list[EventHandler] = []
        self._reverse: dict[str, ReverseHandler] = {"runInTerminal": self.terminal}
        self._closed = asyncio.Event()
        self.close_reason: str | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._trace = from_environment()

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> None:
        self._reader_task = asyncio.create_task(self._read_loop(), name="dap-reader")

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    async def wait_closed(self) -> None:
        await self._closed.wait()

    async def close(self) -> None:
        self._shutdown("client closed the connection")
        if self._reader_task is not None:
            self._reader_task.cancel()
            with contextlib.suppress(BaseException):
                await self._reader_task
        await self.terminal.close()
        await self.transport.close()

    # -- subscribers -------------------------------------------------------------------------

    def on_event(self, handler: EventHandler) -> None:
        self._event_handlers.append(handler)

    def on_reverse_request(self, command: str, handler: ReverseHandler) -> None:
        self._reverse[command] = handler

    # -- requests ----------------------------------------------------------------------------

    def send(self, command: str, arguments: dict[str, Any] | None = None) -> asyncio.Future[dict[str, Any]]:
        """Send a request now; the future resolves to the response body, or fails with `AdapterRefused` or
        `AdapterGone`.

        Sending without awaiting is what the DAP handshake needs: `launch` is answered by some
        adapters only after `configurationDone`.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        if self.closed:
            future.set_exception(AdapterGone(self.close_reason or "adapter is gone"))
            return future
        self._seq += 1
        message: Message = {"seq": self._seq, "type": "request", "command": command}
        if arguments is not None:
            message["arguments"] = arguments
        self._pending[self._seq] = (command, future)
        unlogged(future)  # a request sent and not awaited may fail unread
        self._write(message)
        return future

    async def request(
        self, command: str, arguments: dict[str, Any] | None = None, *, timeout: float = DEFAULT_TIMEOUT
    ) -> dict[str, Any]:
        return await self.wait(command, self.send(command, arguments), timeout)

    async def wait(self, command: str, future: asyncio.Future[dict[str, Any]], timeout: float) -> dict[str, Any]:
        """The response to a sent request. Giving up (timeout, cancellation) leaves `future` pending for
        others. One timer and one callback: what wait_for(shield(...)) does with three futures, and a
        stop costs five of these."""
        if not future.done():
            loop = asyncio.get_running_loop()
            woken: asyncio.Future[None] = loop.create_future()

            def wake(_: object = None) -> None:
                if not woken.done():
                    woken.set_result(None)

            future.add_done_callback(wake)
            timer = loop.call_later(timeout, wake)
            try:
                await woken
            finally:
                timer.cancel()
                future.remove_done_callback(wake)
            if not future.done():
                raise AdapterTimedOut(command, timeout)
        return future.result()

    # -- wire --------------------------------------------------------------------------------

    def _write(self, message: Message) -> None:
        if self._trace is not None:
            self._trace("sent", message)
        try:
            self.transport.writer.write(encode(message))
        except (ConnectionError, RuntimeError) as exc:
            self._shutdown(f"cannot write to adapter: {exc}")

    async def _read_loop(self) -> None:
        reason = "adapter closed the connection"
        try:
            while (message := await read_message(self.transport.reader)) is not None:
                self._dispatch(message)
        except FramingError as exc:
            reason = f"adapter sent a malformed message: {exc}"
        except (ConnectionError, OSError) as exc:
            reason = f"connection to adapter lost: {exc}"
        except Exception as exc:  # valid JSON of the wrong shape; never let the reader die silently
            log.exception("cannot dispatch a message from the adapter")
            reason = f"adapter sent a malformed message: {type(exc).__name__}: {exc}"
        if self.transport.process is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.transport.process.wait(), 0.5)
        self._shutdown(f"{reason} ({self.transport.describe_exit()})")

    def _dispatch(self, message: Message) -> None:
        if self._trace is not None:
            self._trace("received", message)
        kind = message.get("type")
        if kind == "response":
            entry = self._pending.pop(message.get("request_seq", -1), None)
            if entry is None:
                log.debug("response to unknown request: %s", message)
                return
            command, future = entry
            if future.done():
                return
            if message.get("success"):
                future.set_result(message.get("body") or {})
            else:
                future.set_exception(AdapterRefused(command, _error_text(command, message)))
        elif kind == "event":
            for handler in list(self._event_handlers):
                try:
                    handler(str(message.get("event")), message.get("body") or {})
                except Exception:
                    log.exception("event handler failed for %s", message.get("event"))
        elif kind == "request":
            task = asyncio.create_task(self._answer_reverse(message))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _answer_reverse(self, request: Message) -> None:
        command = str(request.get("command"))
        response: Message = {"type": "response", "request_seq": request.get("seq"), "command": command}
        handler = self._reverse.get(command)
        if handler is None:
            response.update(success=False, message=f"unsupported reverse request '{command}'")
        else:
            try:
                response.update(success=True, body=await handler(request.get("arguments") or {}))
            except Exception as exc:  # answer the adapter whatever happened, or it waits forever
                response.update(success=False, message=str(exc))
        if not self.closed:
            self._seq += 1
            response["seq"] = self._seq
            self._write(response)

    def _shutdown(self, reason: str) -> None:
        if self._closed.is_set():
            return
        self.close_reason = reason
        self._closed.set()
        if self._trace is not None:
            self._trace("closed", {"reason": reason})
        pending, self._pending = self._pending, {}
        for command, future in pending.values():
            if not future.done():
                future.set_exception(AdapterGone(f"'{command}' failed: {reason}"))
        for handler in list(self._event_handlers):
            with contextlib.suppress(Exception):
                handler("_closed", {"reason": reason})


def _error_text(command: str, response: Message) -> str:
    body = response.get("body") or {}
    error = body.get("error") if isinstance(body, dict) else None
    text = ""
    if isinstance(error, dict) and error.get("format"):
        text = str(error["format"])
        variables = error.get("variables")
        for key, value in (variables if isinstance(variables, dict) else {}).items():
            text = text.replace("{" + key + "}", str(value))
    return _without_traceback(text or str(response.get("message") or f"'{command}' failed"))


def _without_traceback(text: str) -> str:
    """Adapters written in Python (debugpy) put their own traceback in an error: the agent gets what
    went wrong, its last line, not the adapter's insides."""
    if "Traceback (most recent call last)" not in text:
        return text
    before = text.split("Traceback (most recent call last)", 1)[0].strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    last = next((ln for ln in reversed(lines) if not ln.startswith(("File ", "^", "~"))), lines[-1])
    return f"{before} {last}".strip() if before else last
