"""The one error model: every failure an agent can see is a `Failure`, and reaches it with a code.

A `DebugError` carries the code its raiser chose (`NOT_PAUSED`, `INVALID_ARGUMENT`, ...). The DAP wire
raises its own typed failures (`dap.errors`: refused, gone, timed out), which name no code; the server
gives those theirs in one place (`server/failures.py`) and turns every failure into the seed's envelope
``{"success": false, "error": {"code", "message"}}``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self


class ErrorCode(StrEnum):
    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    NO_SESSION = "NO_SESSION"
    SESSION_EXISTS = "SESSION_EXISTS"
    SESSION_LIMIT = "SESSION_LIMIT"
    NOT_PAUSED = "NOT_PAUSED"
    NOT_SUPPORTED = "NOT_SUPPORTED"
    ADAPTER_NOT_FOUND = "ADAPTER_NOT_FOUND"
    ADAPTER_FAILED = "ADAPTER_FAILED"
    ADAPTER_ERROR = "ADAPTER_ERROR"
    FILE_NOT_FOUND = "FILE_NOT_FOUND"
    BREAKPOINT_NOT_FOUND = "BREAKPOINT_NOT_FOUND"
    SNAPSHOT_NOT_FOUND = "SNAPSHOT_NOT_FOUND"
    SNAPSHOT_LIMIT = "SNAPSHOT_LIMIT"
    BUILD_FAILED = "BUILD_FAILED"
    TIMEOUT = "TIMEOUT"
    TERMINATED = "TERMINATED"
    INTERNAL = "INTERNAL"


class Failure(Exception):
    """Something went wrong that the agent is told about: `message` is written for it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def said_more(self, more: str) -> Self:
        """The same failure, of the same type, with `more` after its message (a hint for what to do now)."""
        again = type(self).__new__(type(self))
        again.__dict__.update(self.__dict__)  # the subclass's fields (a code, the refused command)
        again.message = f"{self.message}; {more}"
        again.args = (again.message,)
        return again


class DebugError(Failure):
    """A failure with a stable code an agent can branch on and a message it can read."""

    def __init__(self, code: ErrorCode | str, message: str) -> None:
        super().__init__(message)
        self.code = str(code)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"
