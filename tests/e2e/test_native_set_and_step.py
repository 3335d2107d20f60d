"""Setting values behind pointers and globals, stepping out of the C library, disassembly, threads and
`continue to`, on C programs under lldb and gdb and Go programs under Delve, shaped like real code."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, marker, stdio_tools

SENSOR = PROGRAMS / "sensor.c"
LEDGER = PROGRAMS / "ledger_go"


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_set_variable_reaches_a_field_behind_a_pointer_and_a_global(adapter: str) -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(SENSOR), adapter=adapter,
                       breakpoints=[{"file": str(SENSOR), "line": marker(SENSOR, "update")}])
        assert (await tools.ok("set-variable", name="s->ticks", value="999999"))["value"] == "999999"
        assert (await tools.ok("set-variable", name="(*s).level", value="2.5"))["value"] == "2.5"
        assert (await tools.ok("set-variable", name="rounds", value="99990"))["value"] == "99990"  # gdb: no Globals scope
        assert (await tools.ok("evaluate", expression="s->ticks"))["value"] == "999999"
        # the program goes on with them: the next round's tick passes the check, and ten rounds end the loop
        await tools.ok("clear-breakpoints", all=True)
        await tools.ok("breakpoint", file=str(SENSOR), line=marker(SENSOR, "check"))
        await tools.ok("continue")
        assert (await tools.ok("evaluate", expression="s->ticks"))["value"] == "1000000"
        assert (await tools.ok("evaluate", expression="rounds"))["value"] == "99991"
        # a wrong field is refused with the debugger's reason, and the session goes on
        message = await tools.error("set-variable", "ADAPTER_ERROR", name="s->nosuch", value="1")
        assert "nosuch" in message
        assert (await tools.ok("set-variable", name="s->ticks", value="5"))["value"] == "5"
        await tools.ok("stop")


async def test_set_variable_reaches_go_fields_behind_pointers() -> None:
    main = LEDGER / "main.go"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(LEDGER), adapter="delve",
                       breakpoints=[{"file": str(main), "line": marker(main, "deposit")}])
        assert (await tools.ok("set-variable", name="root.Balance", value="1000"))["value"] == "1000"
        assert (await tools.ok("set-variable", name="root.Limits.Daily", value="7"))["value"] == "7"
        await tools.error("set-variable", "INVALID_ARGUMENT", name="root.Nosuch", value="1")
        await tools.ok("clear-breakpoints", all=True)
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and "balance=1060 daily=7" in end["output"]["text"], end
