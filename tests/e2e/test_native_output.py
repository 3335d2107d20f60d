"""The program's output under lldb is what the program wrote (issue 36 point 2): lldb-dap sends lldb's own stdout
as "stdout" too, so what dap2mcp's own commands printed (a memory read's bytes, a watch's address and line) and
lldb's note at a watchpoint (`Watchpoint 1 hit: old value ... new value ...`) landed in the program's output."""

from __future__ import annotations

from conftest import PROGRAMS, marker, stdio_tools

PROGRAM = PROGRAMS / "changes.c"


async def test_lldbs_own_words_and_dap2mcps_commands_are_not_the_programs_output():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(PROGRAM), adapter="lldb",
                       breakpoints=[{"file": str(PROGRAM), "line": marker(PROGRAM, "field")}])
        read = await tools.ok("memory", expression="arr", count=1024)
        assert len(read["rows"]) == 64, read.keys()
        await tools.ok("breakpoint", watch="p.x")
        hit = await tools.ok("continue")
        assert hit["reason"] == "data breakpoint" and hit["watches"][0]["new"] == "10", hit
        said = hit.get("adapterOutput", {}).get("text", "")
        assert "Watchpoint 1 hit:" in said and "dap2mcp:" not in said, said  # lldb's note, not the commands' prints
        await tools.ok("breakpoint", id=hit["breakpointIds"][0], enabled=False)
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated", ended
        everything = (await tools.ok("output"))["text"]
        assert everything == "10 2 20\n", everything
