"""Instructions around an address, counted here where the adapter miscounts `disassemble`'s offset."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import DebugError, ErrorCode

if TYPE_CHECKING:
    from ..session import DebugSession

LONGEST_INSTRUCTION = 15
"""Bytes of the longest x86-64 instruction: `n` instructions before an address start at most 15·n bytes before it."""
BACKWARD_LIMIT = 1000
"""Instructions `disassemble` goes back where dap2mcp counts the offset (each costs 15 decoded)."""


async def instructions(session: DebugSession, reference: str, offset: int, count: int) -> list[dict[str, Any]]:
    """`count` instructions from `offset` instructions away from `reference`: counted by the adapter, or here where
    it miscounts (`AdapterProfile.stops.disassembly_offset_counted_here`)."""
    if session.profile.stops.disassembly_offset_counted_here and offset:
        return await instructions_around(session, reference, offset, count)
    return (await session.request("disassemble", {"memoryReference": reference, "instructionOffset": offset,
                                                  "instructionCount": count})).get("instructions") or []


async def instructions_around(session: DebugSession, reference: str, offset: int, count: int) -> list[dict[str, Any]]:
    """`count` instructions from `offset` instructions away from `reference`, where the adapter miscounts the
    offset (see `disassembly_offset_counted_here`): lldb-dap 19 starts at no instruction boundary, and decodes
    garbage. Forward,
    the instructions are counted from `reference` itself; backward, a stretch long enough to hold them is
    decoded from before it, moved a byte at a time until the decoding falls in step with `reference` (x86
    decoding mostly does within a few instructions), and the ones just before `reference` are taken."""
    try:
        address = int(reference, 0)
    except ValueError:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"memoryReference {reference!r} is not an address") from None

    async def decode(start: int, instructions: int) -> list[dict[str, Any]]:
        return (await session.request("disassemble", {"memoryReference": hex(start), "instructionOffset": 0,
                                                      "instructionCount": instructions})).get("instructions") or []

    if offset > 0:
        return (await decode(address, offset + count))[offset:]
    back = -offset
    if back > BACKWARD_LIMIT:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{session.profile.name} can go back at most {BACKWARD_LIMIT} "
                         "instructions; disassemble from an earlier address (a frame's instructionPointer) instead")
    span = back * LONGEST_INSTRUCTION
    for shift in range(LONGEST_INSTRUCTION):
        start = max(0, address - span + shift)
        decoded = await decode(start, address - start + count)
        at = next((i for i, ins in enumerate(decoded) if _address(ins) == address), None)
        if at is not None:
            return decoded[max(0, at - back):max(0, at - back) + count]
    return await decode(address, count)  # no decoding fell in step: from the address itself


def _address(instruction: dict[str, Any]) -> int | None:
    try:
        return int(str(instruction.get("address")), 0)
    except ValueError:
        return None
