"""How a request to an adapter can fail, as types: what the caller does next depends on which.

A refusal is an answer (the adapter is fine, the request was not); a lost adapter answers nothing ever
again; a timeout may still be answered later. The wire names no agent-facing error code: the server
assigns those, in one place (`server/failures.py`).
"""

from __future__ import annotations

from ..errors import Failure


class AdapterFailure(Failure):
    """A request to the adapter, or the adapter itself, failed."""


class AdapterRefused(AdapterFailure):
    """The adapter answered the request with `success: false`; `message` is its reason (perhaps explained by
    the session, or an answer the adapter wrote as a result where it means a refusal: gdb's failed evaluation)."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(message)
        self.command = command


class AdapterGone(AdapterFailure):
    """The connection to the adapter is closed (it exited, crashed, or sent what cannot be read)."""


class AdapterTimedOut(AdapterFailure):
    """No answer within the time given; the request stays pending and may still be answered."""

    def __init__(self, command: str, timeout: float, message: str | None = None) -> None:
        super().__init__(message or f"debug adapter did not answer '{command}' within {timeout:g}s")
        self.command = command
        self.timeout = timeout


class AdapterMissing(AdapterFailure):
    """The adapter's executable could not be started at all."""
