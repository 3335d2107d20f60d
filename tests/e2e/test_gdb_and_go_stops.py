"""Stops on real Delve and gdb that must stay readable: a Go deadlock, a crash 500 calls deep, gdb's reasons
for an expression it cannot evaluate, its console commands, and the program's output at a stop."""

from __future__ import annotations

from conftest import PROGRAMS, code_at, locals_of, marker, pause_on, shown, stdio_tools

DEADLOCK = PROGRAMS / "go_deadlock" / "main.go"
DEEP = PROGRAMS / "deep_crash.c"
LEDGER = PROGRAMS / "ledger.cpp"


async def test_a_go_deadlock_is_a_paused_context_with_each_goroutine_where_it_waits() -> None:
    """Delve has no exceptionInfo for a fatal error: that part is said unreadable, the rest of the stop is shown."""
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(DEADLOCK), timeout=120)
        assert ctx["state"] == "paused" and ctx["reason"] == "exception", ctx
        assert "all goroutines are asleep - deadlock!" in ctx["description"], ctx
        assert "no runtime error found" in ctx["exception"]["unreadable"], ctx["exception"]
        assert ctx["location"] == {"file": shown(DEADLOCK, ctx), "line": marker(DEADLOCK, "main waits"),
                                   "function": "main.main",
                                   "text": code_at(DEADLOCK, marker(DEADLOCK, "main waits"))}, ctx["location"]
        assert "framesTruncated" not in ctx, ctx  # runtime.main below main.main is nothing more to read
        assert "jobs queued: 3" in ctx["output"]["text"]
        whole = await tools.ok("context")
        assert whole["reason"] == "exception" and whole["threads"], whole
        waits = {}
        for thread in whole["threads"]:
            there = await tools.ok("context", threadId=thread["id"])
            if there["location"]["file"] == shown(DEADLOCK, ctx):
                waits[there["location"]["function"]] = waits.get(there["location"]["function"], []) + [
                    there["location"]["line"]]
        assert waits == {"main.main": [marker(DEADLOCK, "main waits")],
                         "main.(*queue).dispatch": [marker(DEADLOCK, "dispatcher waits")],
                         "main.(*queue).worker": [marker(DEADLOCK, "worker waits")] * 3}, waits
        # the thread list itself says it: Delve names a goroutine by the runtime's function it waits in
        listed = {}
        for thread in whole["threads"]:
            if (at := thread.get("at")) is not None:
                assert at["file"] == shown(DEADLOCK, ctx), thread
                listed[at["function"]] = listed.get(at["function"], []) + [at["line"]]
        assert listed == waits, (listed, whole["threads"])
        paused = await tools.ok("pause")
        assert paused["state"] == "paused" and paused["exception"]["unreadable"], paused
        await tools.ok("stop")


async def test_a_crash_500_calls_deep_under_gdb_gives_its_whole_stack_and_says_when_it_is_cut() -> None:
    """cdt-gdb-adapter lists and counts at most 100 frames; the rest are read page by page."""
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(DEEP), adapter="gdb")
        assert ctx["state"] == "paused" and ctx["reason"] == "exception", ctx
        assert ctx["location"]["line"] == marker(DEEP, "crash") and len(ctx["frames"]) == 20
        assert ctx["framesTruncated"] is True and ctx.get("totalFrames") != 100, ctx  # not gdb's capped count
        pages = [await tools.ok("context", maxFrames=200)]  # at most 200 a page, then framesNext
        while "framesNext" in pages[-1]:
            pages.append(await tools.ok("context", maxFrames=200, framesOffset=pages[-1]["framesNext"]))
        functions = [f["function"] for page in pages for f in page["frames"]]
        assert functions == ["sum_from"] * 501 + ["main"], (len(functions), functions[-3:])
        assert "framesTruncated" not in pages[-1] and len(pages) == 3, pages[-1]
        exact = await tools.ok("context", maxFrames=102, framesOffset=400)
        assert len(exact["frames"]) == 102 and "framesTruncated" not in exact, exact["frames"][-1]
        short = await tools.ok("context", maxFrames=150)
        assert len(short["frames"]) == 150 and short["framesTruncated"] is True, short["frames"][-1]
        await tools.ok("stop")


async def test_gdb_says_why_an_expression_cannot_be_read_and_its_console_only_reads() -> None:
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(LEDGER), adapter="gdb",
                             breakpoints=[{"file": str(LEDGER), "line": marker(LEDGER, "total")}])
        assert ctx["location"]["function"] == "total", ctx
        # the program's stdout is a pipe of ours; what it printed before the stop is there at the stop
        assert ctx["output"]["text"] == "ledger opened\n", ctx.get("output")
        for expression, reason in [('ages["bob"]', "Could not find operator[]"),
                                   ("nosuch + 1", 'No symbol "nosuch" in current context'),
                                   ("1 +", "A syntax error in expression"),
                                   ("*(int*)0", "Cannot access memory at address 0x0")]:
            said = await tools.error("evaluate", "ADAPTER_ERROR", expression=expression)
            assert reason in said, (expression, said)
        assert (await tools.ok("evaluate", expression="sum"))["value"] == "73"
        printed = await tools.ok("evaluate", expression=">print ages")
        assert printed["value"].endswith('std::map with 2 elements = {["alice"] = 31, ["bob"] = 42}'), printed
        assert (await tools.ok("evaluate", expression=">info locals"))["value"] == "sum = 73"
        for command, instead in [(">run", "`restart`"), (">kill", "`stop`"), (">shell ls /", "only read"),
                                 (">  break main", "`breakpoint`"), (">-exec-continue", "only read"),
                                 (">p sum = 5", "set-variable"), (">print sum += 1", "set-variable"),
                                 (">output sum++", "set-variable"), (">p sum <<= 2", "set-variable")]:
            refused = await tools.error("evaluate", "NOT_SUPPORTED", expression=command)
            assert instead in refused, (command, refused)
        compared = await tools.ok("evaluate", expression=">p sum == 73")
        assert compared["value"].endswith("= true"), compared  # a comparison reads (C++: a bool)
        assert (await tools.ok("evaluate", expression="sum"))["value"] == "73", "a refused command wrote nothing"
        again = await tools.ok("continue")  # the program was left where it was, and runs on as asked
        assert again["state"] == "paused" and again["cycle"] == ctx["cycle"] + 1, again
        assert again["location"]["function"] == "total" and again["output"]["text"] == "checking 2 accounts\n", again
        await tools.ok("clear-breakpoints", all=True)
        failed = await tools.ok("continue")
        assert failed["reason"] == "exception" and failed["location"]["line"] == marker(LEDGER, "assert"), failed
        assert "Assertion `got == expected' failed" in failed["output"]["text"], failed["output"]
        # cdt-gdb-adapter cannot list this frame (its `__PRETTY_FUNCTION__` is an array below the top frame)
        values = locals_of(failed)
        assert (values["got"], values["expected"]) == ("73", "70") and "__PRETTY_FUNCTION__" in values, failed["scopes"]
        outer = await tools.ok("context", frameId=failed["frames"][-1]["id"])  # and main's, below it
        assert "ages" in locals_of(outer), outer["scopes"]
        await tools.ok("stop")


async def test_delves_own_commands_pass_where_they_only_read() -> None:
    """`dlv config substitutePath ...` in `evaluate` changed the paths Delve reports behind the server's back
    (and `stackTraceDepth`, `hideSystemGoroutines` the stacks and threads it reads)."""
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(DEADLOCK), timeout=120)
        assert "dlv sources" in (await tools.ok("evaluate", expression="dlv help"))["value"]
        assert "substitutePath\t[]" in (await tools.ok("evaluate", expression="dlv config -list"))["value"]
        message = await tools.error("evaluate", "NOT_SUPPORTED", expression=f"dlv config substitutePath {DEADLOCK.parent} /elsewhere")
        assert "`debug`" in message and "dlv config -list" in message, message
        assert "substitutePath\t[]" in (await tools.ok("evaluate", expression="dlv config -list"))["value"]
        again = await tools.ok("context")
        assert again["location"]["file"] == ctx["location"]["file"] == shown(DEADLOCK, ctx), again["location"]
        await tools.ok("stop")



async def test_a_step_after_a_pause_in_time_sleep_goes_to_the_next_line_under_delve():
    """A pause in time.Sleep is shown at the loop's Sleep line; the step first leaves the runtime's frames, and
    Delve's return from Sleep already lands on the next line's first instruction: stepping over from there too
    skipped the Println line (issue 36 point 7)."""
    program = PROGRAMS / "sleeper.go"
    async with stdio_tools() as tools:
        assert (await tools.ok("debug", mode="source", path=str(program), timeout=2))["state"] == "running"
        # a pause may land in fmt.Println now and then
        await pause_on(tools, [marker(program, "sleep")], guard=60,
                       normal="the first pause: the loop sleeps nearly all the time")
        stepped = await tools.ok("step", mode="over")
        assert (stepped["reason"], stepped["location"]["line"]) == ("step", marker(program, "print")), stepped
        await tools.ok("stop")
