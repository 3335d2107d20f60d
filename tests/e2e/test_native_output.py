"""The program's output under lldb is what the program wrote (issue 36 point 2): lldb-dap sends lldb's own stdout
as "stdout" too, so what dap2mcp's own commands printed (a memory read's bytes, a watch's address and line) and
lldb's note at a watchpoint (`Watchpoint 1 hit: old value ... new value ...`) landed in the program's output."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, locals_of, marker, stdio_tools

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


async def test_a_watch_on_a_local_of_main_is_gone_with_its_frame_not_a_stop_in_the_c_library():
    """lldb keeps watching the stack slot of a local whose frame has returned: after main returned, the C library's
    exit handlers wrote there and the program stopped in `__run_exit_handlers` as `watchpoint 1` (lldb's number).
    The watch goes with its frame, and the program runs to its end (issue 36 point 4)."""
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(PROGRAM), adapter="lldb",
                       breakpoints=[{"file": str(PROGRAM), "line": marker(PROGRAM, "field")}])
        watch = await tools.ok("breakpoint", watch="p.x")
        hit = await tools.ok("continue")
        assert hit["reason"] == "data breakpoint" and hit["location"]["function"] == "main", hit
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert any(f"watch {watch['id']} (p.x) went away" in note for note in ended.get("breakpointNotes") or []), ended


async def test_a_c_files_statics_are_named_at_a_stop_and_listed_on_request():
    """A C file's static tables were listed in `Globals` at every stop under lldb (46 tables, 5 KB, in cmark-gfm);
    like Python's module globals they are named and listed when asked (issue 36 point 7)."""
    program = PROGRAMS / "statics.c"
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(program), adapter="lldb",
                              breakpoints=[{"file": str(program), "line": marker(program, "use")}])
        named = {s["name"]: s for s in stop["scopes"]}
        assert named["Globals"]["variables"] == [] and named["Globals"].get("expensive"), stop["scopes"]
        asked = await tools.ok("context", scopes=["globals"])
        listed = {v["name"]: v["value"] for s in asked["scopes"] if s["name"] == "Globals" for v in s["variables"]}
        assert listed["counter"] == "0" and {"table", "names"} <= listed.keys(), listed
        assert (await tools.ok("set-variable", name="counter", value="7"))["value"] == "7"  # still reached by name
        await tools.ok("stop")


async def test_a_null_struct_pointer_says_null_once():
    """lldb lists each member of what a NULL pointer points to as `<error: parent is NULL>`: a preview said it once
    a field (issue 36 point 7)."""
    program = PROGRAMS / "nulls.c"
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(program), adapter="lldb",
                              breakpoints=[{"file": str(program), "line": marker(program, "print")}])
        values = locals_of(stop)
        assert values["none"] == "0x0000000000000000 NULL", values
        assert values["one"] == '{value: 1, next: 0x0000000000000000 NULL, label: "x"}', values
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_an_enum_is_set_by_its_enumerators_name_or_refused_saying_why(adapter):
    """lldb-dap refused `set-variable {name: c, value: BLUE}` with "'setVariable' failed" and no reason (issue 36
    point 7): lldb's own expression takes the name, and an unknown one is refused with lldb's reason."""
    program = PROGRAMS / "colors.c"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), adapter=adapter,
                       breakpoints=[{"file": str(program), "line": marker(program, "print")}])
        assert (await tools.ok("set-variable", name="c", value="BLUE"))["value"] == "BLUE"
        message = await tools.error("set-variable", "ADAPTER_ERROR", name="c", value="PURPLE")
        assert "PURPLE" in message and "'setVariable' failed" not in message, message
        assert (await tools.ok("continue"))["output"]["text"] == "2\n"
