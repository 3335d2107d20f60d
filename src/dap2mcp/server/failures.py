"""The agent's error code for every failure, in one place.

A `DebugError` comes with the code its raiser chose. A failure the DAP wire typed (`dap.errors`) gets its
code here: the adapter refused the request (`ADAPTER_ERROR`), it is gone (`ADAPTER_FAILED`), it did not
answer in time (`TIMEOUT`), or it could not be started (`ADAPTER_NOT_FOUND`).
"""

from __future__ import annotations

from ..dap import AdapterGone, AdapterMissing, AdapterRefused, AdapterTimedOut
from ..errors import DebugError, ErrorCode, Failure

WIRE_CODES: tuple[tuple[type[Failure], ErrorCode], ...] = (
    (AdapterRefused, ErrorCode.ADAPTER_ERROR),
    (AdapterGone, ErrorCode.ADAPTER_FAILED),
    (AdapterTimedOut, ErrorCode.TIMEOUT),
    (AdapterMissing, ErrorCode.ADAPTER_NOT_FOUND),
)


def coded(failure: Failure) -> DebugError:
    """`failure` as the agent is told it: with its code."""
    if isinstance(failure, DebugError):
        return failure
    code = next((code for kind, code in WIRE_CODES if isinstance(failure, kind)), ErrorCode.INTERNAL)
    return DebugError(code, failure.message)
