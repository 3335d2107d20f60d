"""`memory` on real programs: a C struct's array and text buffer read under lldb (lldb-dap 19 has no
readMemory: lldb's own Python reads) and gdb (DAP readMemory), as rows of address, hex and text; bad
input refused with a clear code; debugpy refuses, saying what to do instead."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, marker, stdio_tools

LEDGER = PROGRAMS / "ledger.c"


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_memory_reads_a_struct_s_fields_as_a_hex_dump(adapter: str) -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(LEDGER), adapter=adapter, timeout=120,
                       breakpoints=[{"file": str(LEDGER), "line": marker(LEDGER, "summed")}])
        memo = await tools.ok("memory", expression="account.memo", count=40)
        assert [row["text"] for row in memo["rows"]] == ["rent for july...", "................", "........"]
        assert memo["rows"][0]["hex"].startswith("72 65 6e 74 20 66 6f 72") and memo["count"] == 40
        start = int(memo["address"], 16)
        assert [int(row["address"], 16) for row in memo["rows"]] == [start, start + 16, start + 32]

        balances = await tools.ok("memory", expression="account.balances", count=12)
        assert balances["rows"][0]["hex"] == "0a 00 00 00 14 00 00 00 1e 00 00 00"  # 10, 20, 30 as little-endian ints
        later = await tools.ok("memory", expression="history[2]", offset=4, count=4)
        assert later["rows"][0]["hex"] == "eb 03 00 00"  # history[3] = 1003
        pointed = await tools.ok("memory", expression="*account.owner", count=4)
        assert pointed["rows"][0]["text"] == "Ada."
        again = await tools.ok("memory", memoryReference=memo["address"], offset=5, count=3)  # an address given back
        assert again["rows"][0]["text"] == "for" and int(again["address"], 16) == start + 5

        assert "one of them" in await tools.error("memory", "INVALID_ARGUMENT")
        await tools.error("memory", "INVALID_ARGUMENT", expression="sum", memoryReference=memo["address"])
        await tools.error("memory", "INVALID_ARGUMENT", expression="account.memo", count=4097)
        assert "no address for 'sum + 1'" in await tools.error("memory", "INVALID_ARGUMENT", expression="sum + 1")
        if adapter == "lldb":
            assert "not an address" in await tools.error("memory", "INVALID_ARGUMENT", memoryReference="banana")
        else:  # cdt-gdb-adapter reads a reference as an expression, and refuses this one itself
            assert "banana" in await tools.error("memory", "ADAPTER_ERROR", memoryReference="banana")
        # still usable; a value the program wrote (main's `sum` is not set yet at this line: its bytes were the stack's)
        opened = await tools.ok("memory", expression="account.opened", count=8)
        assert opened["rows"][0]["hex"] == "e5 07 00 00 07 00 00 00"  # {2021, 7}
        await tools.ok("stop")


async def test_debugpy_has_no_memory_to_read_and_says_what_to_do() -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(PROGRAMS / "counter.py"), stopOnEntry=True)
        message = await tools.error("memory", "NOT_SUPPORTED", expression="total")
        assert "supportsReadMemoryRequest" in message and "`evaluate`" in message
        await tools.ok("stop")
