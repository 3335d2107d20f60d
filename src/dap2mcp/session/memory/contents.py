"""Reading a paused program's memory (`memory`): through DAP `readMemory` where the adapter has it, else
through the debugger's own command where its profile names one (lldb-dap 19); shown as rows of address,
hex bytes and the printable characters, as a hex dump is read."""

from __future__ import annotations

import base64
import re
import string
from typing import TYPE_CHECKING, Any

from ...adapters.base import OWN_PRINT
from ...dap.errors import AdapterRefused
from ...errors import DebugError, ErrorCode

if TYPE_CHECKING:
    from ..session import DebugSession

MAX_BYTES = 4096
ROW = 16
_PRINTABLE = frozenset(string.printable.encode()) - frozenset(b"\t\n\r\x0b\x0c")


async def read(session: DebugSession, reference: str | None, expression: str | None, offset: int, count: int,
               frame: int) -> dict[str, Any]:
    """`count` bytes from `offset` bytes past `reference`, or past the address of what `expression` names."""
    profile = session.profile
    reads = session.capabilities.get("supportsReadMemoryRequest")
    if not reads and profile.console.memory_command is None and profile.console.memory_expression is None:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{profile.name} cannot read memory (no supportsReadMemoryRequest): "
                         f"{profile.console.memory_instead}")
    if expression is not None:
        reference = hex(await address_of(session, expression, frame))
    assert reference is not None, "the tool asks for one of the two"
    if profile.console.memory_expression is not None:
        start, data = await _by_expression(session, _number(reference) + offset, count, frame)
        unreadable = count - len(data)
    elif reads:
        body = await session.request("readMemory", {"memoryReference": reference, "offset": offset, "count": count})
        start = _number(body.get("address") or reference)
        data = base64.b64decode(body.get("data") or "")
        unreadable = int(body.get("unreadableBytes") or 0)
    else:
        start, data = await _by_command(session, _number(reference) + offset, count, frame)
        unreadable = count - len(data)
    return {"address": hex(start), "count": len(data), "unreadableBytes": unreadable or None,
            "rows": rows(start, data)}


async def address_of(session: DebugSession, expression: str, frame: int) -> int:
    """Where the value `expression` names is (its address, in the program's language), or a clear error."""
    profile = session.profile
    if profile.console.address_of is None:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{profile.name}: no address of an expression here; give a "
                         "memoryReference (a variable's or a frame's)")
    asked = profile.console.address_of.format(expression)
    try:
        body = await session.request("evaluate", {"expression": asked, "frameId": frame,
                                                  "context": profile.evaluation.evaluate_context})
    except AdapterRefused as exc:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"no address for {expression!r} (a value that lives in memory: "
                         f"a variable, a field, an array element; `*p` for what p points at): {exc.message}") from None
    found = profile.console.address_said.match((body.get("result") or "").strip())
    if found is None or body.get("result") in profile.evaluation.failed_evaluations:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"no address for {expression!r}: {profile.name} answered "
                         f"{body.get('result')!r} for {asked!r}")
    return int(found.group(found.lastindex or 0), 16)


async def _by_expression(session: DebugSession, address: int, count: int, frame: int) -> tuple[int, bytes]:
    """The bytes as the program's language reads them (`AdapterProfile.console.memory_expression`), a piece at a time (the
    adapter lists no more of an array in one value); short where a piece is unreadable."""
    data = b""
    while len(data) < count:
        piece = min(EXPRESSION_PIECE, count - len(data))
        expression = (session.profile.console.memory_expression or "").format(address=address + len(data), count=piece)
        try:
            body = await session.request("evaluate", {"expression": expression, "frameId": frame,
                                                      "context": session.profile.evaluation.evaluate_context})
        except AdapterRefused:
            break
        listed = _BYTE_LIST.search(body.get("result") or "")
        if listed is None:
            break
        data += bytes(int(b) for b in listed.group(1).split(","))
    if not data:
        raise DebugError(ErrorCode.ADAPTER_ERROR, f"cannot read memory at {hex(address)}: unreadable")
    return address, data


EXPRESSION_PIECE = 64
"""Delve lists the first 64 elements of an array value."""
_BYTE_LIST = re.compile(r"\[(\d+(?:,\d+)*)\]\s*$")


async def _by_command(session: DebugSession, address: int, count: int, frame: int) -> tuple[int, bytes]:
    command = (session.profile.console.memory_command or "").format(address=address, count=count)
    body = await session.request("evaluate", {"expression": command, "frameId": frame, "context": "repl"})
    for line in (body.get("result") or "").splitlines():
        words = line.split(None, 2)
        if len(words) >= 2 and words[0] == f"{OWN_PRINT}{address}":
            if words[1] == "error":
                raise DebugError(ErrorCode.ADAPTER_ERROR, f"cannot read memory at {hex(address)}: "
                                 f"{words[2] if len(words) > 2 else 'unreadable'}")
            return address, bytes.fromhex(words[1])
    raise DebugError(ErrorCode.ADAPTER_ERROR, f"{session.profile.name} did not read memory at {hex(address)}: "
                     f"{(body.get('result') or '')[:500]!r}")


def rows(start: int, data: bytes) -> list[dict[str, str]]:
    """16 bytes a row: `address`, `hex` (bytes spaced) and `text` (the printable ones, '.' for the rest)."""
    return [{"address": hex(start + at), "hex": chunk.hex(" "),
             "text": "".join(chr(b) if b in _PRINTABLE else "." for b in chunk)}
            for at in range(0, len(data), ROW) for chunk in [data[at:at + ROW]]]


def _number(reference: str) -> int:
    try:
        return int(reference, 0)
    except ValueError:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"memoryReference {reference!r} is not an address "
                         "(e.g. 0x7ffd1234); give `expression` to read at a value's address") from None
