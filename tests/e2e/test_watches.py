"""Watches (data breakpoints) on a real C program under lldb and gdb: the stop names the watch, its location
is the line that wrote, the context has the old and new value; a condition; the breakpoints resource and
clear-breakpoints; a watched local that goes away with its frame; watches resolved anew after restart.
debugpy has no data breakpoints and says what to do instead; Delve has them since 1.2x (not 1.20)."""

from __future__ import annotations

import pytest

from conftest import PROGRAMS, marker, stdio_tools

WATCHED = PROGRAMS / "watched.c"


def line(name: str) -> int:
    return marker(WATCHED, name)


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_a_watch_stops_at_each_write_with_old_and_new_value(adapter: str) -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(WATCHED), adapter=adapter, timeout=120,
                       breakpoints=[{"file": str(WATCHED), "line": line("start")}])
        watch = await tools.ok("breakpoint", watch="ledger.total")
        assert (watch["type"], watch["access"], watch["value"], watch["verified"]) == ("watch", "write", "0", True)
        listed = await tools.read_json("debugger://breakpoints")
        assert any(b["id"] == watch["id"] and b["watch"] == "ledger.total" for b in listed["breakpoints"])

        first = await tools.ok("continue")
        assert first["reason"] == "data breakpoint" and first["breakpointIds"] == [watch["id"]]
        assert first["location"]["line"] == line("add") and first["location"]["function"] == "post"
        assert first["watches"] == [{"id": watch["id"], "expression": "ledger.total", "old": "0", "new": "10"}]
        # docs/tools.md: `description` names the write, `old` -> `new`, and says when the program paused on another line
        assert first["description"].startswith(f"watch {watch['id']}: ledger.total 0 -> 10"), first["description"]
        assert f"(written by line {line('add')}; paused just after it" in first["description"], first["description"]

        if adapter == "lldb":
            await tools.ok("breakpoint", id=watch["id"], condition="ledger.total < 25")  # only the write that lowers it
        else:  # cdt-gdb-adapter drops a data breakpoint's condition: refused, and each write stops
            assert "drop" in await tools.error("breakpoint", "NOT_SUPPORTED", id=watch["id"], condition="ledger.total < 25")
            assert (await tools.ok("continue"))["watches"][0]["new"] == "30"
        wrong = await tools.ok("continue")
        assert wrong["location"]["line"] == line("wrong") and wrong["location"]["function"] == "refund"
        assert wrong["watches"][0]["new"] == "20" and wrong["watches"][0]["old"] == ("10" if adapter == "lldb" else "30")
        assert wrong["description"].startswith(f"watch {watch['id']}: ledger.total {wrong['watches'][0]['old']} -> 20")

        assert (await tools.ok("clear-breakpoints", ids=[watch["id"]]))["removed"] == [watch["id"]]
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and "27" in ended["output"]["text"]


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_a_watched_local_goes_with_its_frame_and_watches_survive_restart(adapter: str) -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(WATCHED), adapter=adapter, timeout=120,
                       breakpoints=[{"file": str(WATCHED), "line": line("local")},
                                    {"file": str(WATCHED), "line": line("after")}])
        local = await tools.ok("breakpoint", watch="local")
        kept = await tools.ok("breakpoint", watch="ledger.entries[2]")
        wrote = await tools.ok("continue")
        assert wrote["reason"] == "data breakpoint" and wrote["location"]["line"] in (line("local"), line("local-write"))
        while True:  # on past the local's writes until its function has returned
            ctx = await tools.ok("continue")
            if "went away" in " ".join(ctx.get("breakpointNotes") or []):
                break
            assert ctx["reason"] == "data breakpoint" and ctx["location"]["function"] == "scratch", ctx
        assert any(f"watch {local['id']} (local) went away" in note for note in ctx["breakpointNotes"])
        remaining = {b["id"] for b in (await tools.read_json("debugger://breakpoints"))["breakpoints"]}
        assert local["id"] not in remaining and kept["id"] in remaining

        again = await tools.ok("restart")  # stops at `local`: the global's watch is found anew there
        assert any(f"watch {kept['id']} (ledger.entries[2]) now watches" in n for n in again.get("breakpointNotes") or []), again
        ctx = await tools.ok("continue")
        while ctx["state"] == "paused" and ctx.get("reason") != "data breakpoint":
            ctx = await tools.ok("continue")
        assert ctx["breakpointIds"] == [kept["id"]] and ctx["location"]["line"] == line("entry")
        assert ctx["watches"][0]["new"] == "7"
        await tools.ok("stop")


async def test_debugpy_refuses_watches_and_says_what_to_do() -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(PROGRAMS / "counter.py"), stopOnEntry=True)
        message = await tools.error("breakpoint", "NOT_SUPPORTED", watch="total")
        assert "supportsDataBreakpoints" in message and "condition" in message
        await tools.error("breakpoint", "INVALID_ARGUMENT", watch="total", line=3)
        await tools.ok("stop")


async def test_a_go_watch_stops_where_a_field_behind_a_pointer_is_written_and_memory_reads_it() -> None:
    """Delve 1.27 has data breakpoints (1.20 answered NOT_SUPPORTED), and reads memory, though its `readMemory`
    takes only references of its own: `memory` reads through Go expressions instead."""
    ledger = PROGRAMS / "ledger_go" / "main.go"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(ledger.parent), timeout=120,
                       breakpoints=[{"file": str(ledger), "line": marker(ledger, "loop")}])
        watch = await tools.ok("breakpoint", watch="root.Balance")
        assert (watch["type"], watch["access"], watch["value"], watch["verified"]) == ("watch", "write", "0", True)
        for old, new in (("0", "10"), ("10", "30")):
            wrote = await tools.ok("continue")
            assert wrote["reason"] == "data breakpoint" and wrote["breakpointIds"] == [watch["id"]], wrote
            assert (wrote["location"]["function"], wrote["location"]["line"]) == ("main.deposit", marker(ledger, "deposit"))
            assert wrote["watches"] == [{"id": watch["id"], "expression": "root.Balance", "old": old, "new": new}]
        # the Account's first bytes: Owner's string header (its data pointer, then its length 3), then Balance
        read = await tools.ok("memory", expression="*root", count=24)
        assert read["count"] == 24 and read["address"] == hex(int(read["address"], 16)), read
        assert [row["hex"] for row in read["rows"]][1:] == ["1e 00 00 00 00 00 00 00"], read  # Balance: 30
        assert read["rows"][0]["hex"].endswith("03 00 00 00 00 00 00 00"), read
        owner = await tools.ok("memory", expression="root.Owner", count=16)
        assert owner["address"] == read["address"] and owner["rows"][0]["hex"] == read["rows"][0]["hex"]
        past = await tools.ok("memory", memoryReference=read["address"], offset=16, count=8)  # by address
        assert past["rows"][0]["hex"] == "1e 00 00 00 00 00 00 00", past
        more = await tools.ok("memory", expression="*root", count=200)  # more than Delve lists of one array value
        assert more["count"] == 200 and len(more["rows"]) == 13 and more["rows"][1]["hex"].startswith("1e 00"), more
        assert "unreadable" in await tools.error("memory", "ADAPTER_ERROR", memoryReference="0x1000", count=16)
        assert (await tools.ok("clear-breakpoints", ids=[watch["id"]]))["removed"] == [watch["id"]]
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and "balance=60 daily=100" in ended["output"]["text"], ended


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_watches_given_to_debug_and_read_watches_that_stop_only_at_their_own_reads(adapter: str) -> None:
    """Watches in `debug`'s breakpoints are resolved at the first stop. A read watch (`ledger.total`, read by
    `+=` and by refund) and a readWrite one on an entry nothing touches are reported only at the stops that
    are theirs, told apart by what the debugger says stopped it (lldb: the watchpoint's address; gdb: its
    number in its output), not at every stop by a watch."""
    async with stdio_tools() as tools:
        started = await tools.ok("debug", mode="source", path=str(WATCHED), adapter=adapter, timeout=120,
                                 breakpoints=[{"file": str(WATCHED), "line": line("start")},
                                              {"watch": "ledger.entries[1]"},
                                              {"watch": "ledger.total", "access": "read"},
                                              {"watch": "ledger.entries[3]", "access": "readWrite"}])
        notes = " ".join(started["breakpointNotes"])
        assert all(f"watch {n} ({w}) now watches" in notes
                   for n, w in ((2, "ledger.entries[1]"), (3, "ledger.total"), (4, "ledger.entries[3]"))), notes
        listed = {b["id"]: b for b in (await tools.read_json("debugger://breakpoints"))["breakpoints"]}
        assert (listed[3]["access"], listed[3]["verified"], listed[4]["access"]) == ("read", True, "readWrite")

        read = await tools.ok("continue")  # `b->total += amount` reads it
        assert read["reason"] == "data breakpoint" and read["breakpointIds"] == [3], read
        assert read["location"]["function"] == "post" and read["watches"][0]["id"] == 3
        seen = [read]
        while (ctx := await tools.ok("continue"))["breakpointIds"] != [2]:  # on to the write of entries[1]
            assert ctx["breakpointIds"] == [3] and ctx["location"]["function"] == "post", ctx
            seen.append(ctx)
        assert ctx["location"]["line"] == line("entry") and ctx["watches"][0] == \
            {"id": 2, "expression": "ledger.entries[1]", "old": "0", "new": "20"}
        assert all(hit["stoppedHere"] is False for hit in ctx["watches"][1:])  # total's write, seen meanwhile
        assert not any(hit["id"] == 4 for stop in [*seen, ctx] for hit in stop["watches"])
        listed = {b["id"]: b for b in (await tools.read_json("debugger://breakpoints"))["breakpoints"]}
        assert (listed[2]["hitCount"], listed[3]["hitCount"], listed[4]["hitCount"]) == (1, len(seen), 0)
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_cpp_a_struct_member_and_a_vector_element_watched(adapter: str) -> None:
    """C++: a member written by a method (`count += amount` through `this`) and an element of a std::vector (on
    the heap, named through `operator[]`): each stop names its watch, in the method that wrote."""
    program = PROGRAMS / "watched.cpp"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), adapter=adapter, timeout=120,
                       breakpoints=[{"file": str(program), "line": marker(program, "start")}])
        count = await tools.ok("breakpoint", watch="stock.count")
        element = await tools.ok("breakpoint", watch="stock.bins[2]")
        assert (count["value"], element["value"], element["verified"]) == ("0", "0", True)
        expected = [(count, "count", "0", "4"), (element, "bin", "0", "5"), (count, "count", "4", "9"),
                    (element, "reset", "5", "1")]
        for watch, where, old, new in expected:
            ctx = await tools.ok("continue")
            assert ctx["reason"] == "data breakpoint" and ctx["breakpointIds"] == [watch["id"]], ctx
            assert ctx["location"]["line"] == marker(program, where)
            assert ctx["location"]["function"].startswith("main" if where == "reset" else "Stock::add")
            assert ctx["watches"] == [{"id": watch["id"], "expression": watch["watch"], "old": old, "new": new}]
        await tools.ok("clear-breakpoints", ids=[count["id"], element["id"]])  # the vector's free writes it next
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and "9 1" in ended["output"]["text"]
