"""Ruby through rdbg (Debian's Ruby 3.1 and its debug gem 1.4.0), under a real MCP client over stdio: a bug hunt
in tests/programs/ruby/orders.rb with conditions, stepping, locals, evaluate, exceptions and the exit code; what
rdbg 1.4.0 lacks answers NOT_SUPPORTED naming the adapter; a program started under `rdbg --open` reached with
mode `connect`."""

from __future__ import annotations

import asyncio
import re
import subprocess

from dap2mcp.adapters.ruby import RDBG

from conftest import PROGRAMS, locals_of, marker, stdio_tools

ORDERS = PROGRAMS / "ruby" / "orders.rb"
DISCOUNT, TOTAL, RAISE, REPORT = (marker(ORDERS, name) for name in ("discount", "total", "raise", "report"))


def debug(**arguments):
    return {"mode": "source", "path": str(ORDERS), "timeout": 30, **arguments}


async def test_a_bug_hunt_in_ruby_stops_steps_reads_and_ends_with_the_programs_exit_code():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **debug(breakpoints=[{"file": str(ORDERS), "line": DISCOUNT,
                                                             "condition": "line.name == 'cake'"}]))
        assert ctx["reason"] == "breakpoint" and ctx["location"]["line"] == DISCOUNT, ctx
        assert "description" not in ctx, ctx  # rdbg's own " BP - Line ..." words are not the agent's
        local = locals_of(ctx)
        assert local["cost"] == "4" and 'name="cake"' in local["line"] and local["sum"] == "1", local
        assert ctx["output"]["text"] == "lines 2\n", ctx["output"]  # written through, before the stop
        assert [s["name"] for s in ctx["scopes"]][-1] == "Global variables" and not ctx["scopes"][-1]["variables"]
        read = await tools.ok("evaluate", expression="line.price * line.quantity - discount")
        assert (read["value"], read["type"]) == ("-1", "Integer"), read

        stepped = await tools.ok("step", mode="over")
        assert stepped["reason"] == "step" and locals_of(stepped)["sum"] == "0", stepped  # 1 + (4 - 5)
        out = await tools.ok("step", mode="out")
        assert out["reason"] == "step" and out["frames"][0]["function"] != "block in total", out

        await tools.ok("clear-breakpoints", all=True)  # rdbg 1.4.0 only adds breakpoints: the preload removes them
        await tools.ok("breakpoint", file=str(ORDERS), line=TOTAL, condition="sum < 0")
        ctx = await tools.ok("continue")
        assert ctx["location"]["line"] == TOTAL and locals_of(ctx)["sum"] == "-19", ctx  # the small order
        again = await tools.ok("continue")  # `check` asks the order its total again, for the message
        assert again["location"]["line"] == TOTAL and locals_of(again)["sum"] == "-19", again
        await tools.ok("clear-breakpoints", all=True)
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 1, ended
        assert ended["description"] == "the program exited with code 1", ended
        assert "negative total -19 (ArgumentError)" in ended["output"]["text"], ended["output"]
        assert "DEBUGGER:" not in ended["output"]["text"]  # rdbg's own lines are its, not the program's


async def test_an_exception_filter_stops_where_ruby_raises_and_stop_on_entry_at_the_first_line():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **debug(breakpoints=[{"exception": "any"}]))
        assert ctx["reason"] == "exception" and ctx["location"]["line"] == RAISE, ctx
        assert "negative total -19" in ctx["description"], ctx
        assert (await tools.ok("evaluate", expression="order.total"))["value"] == "-19"

        ctx = await tools.ok("debug", **debug(stopOnEntry=True))
        first = next(n for n, text in enumerate(ORDERS.read_text().splitlines(), 1)
                     if text.strip() and not text.startswith("#"))
        assert ctx["reason"] == "entry" and ctx["location"]["line"] == first, ctx
        ended = await tools.ok("continue")
        assert ended["exitCode"] == 1, ended


async def test_what_rdbg_1_4_lacks_is_refused_naming_the_adapter_and_the_session_goes_on():
    async with stdio_tools() as tools:
        await tools.ok("debug", **debug(breakpoints=[{"file": str(ORDERS), "line": DISCOUNT}]))
        for arguments in ({"file": str(ORDERS), "line": TOTAL, "hitCondition": "2"},
                          {"file": str(ORDERS), "line": TOTAL, "logMessage": "sum {sum}"},
                          {"function": "check"}, {"watch": "sum"}):
            message = await tools.error("breakpoint", "NOT_SUPPORTED", **arguments)
            assert "ruby" in message and ("instead" in message or "`continue`" in message), message  # what to do
        refused = await tools.error("set-variable", "NOT_SUPPORTED", name="cost", value="100")
        assert "ruby" in refused and "`evaluate` an assignment" in refused, refused
        ctx = await tools.ok("continue")
        assert ctx["location"]["line"] == DISCOUNT and locals_of(ctx)["cost"] == "4", ctx  # still debugging


async def test_a_program_started_under_rdbg_open_is_reached_with_mode_connect():
    program = await asyncio.create_subprocess_exec(
        "ruby", RDBG.require("ruby"), "--open", "--host=127.0.0.1", "--port=0", str(ORDERS),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={"RUBY_DEBUG_SHOW_SRC_LINES": "0",
                                                                "RUBY_DEBUG_SHOW_FRAMES": "0", "PATH": "/usr/bin:/bin"})
    try:
        said = ""
        assert program.stderr is not None
        while not (found := re.search(r"TCP/IP \((\S+):(\d+)\)", said)) or "wait for debugger" not in said:
            said += (await asyncio.wait_for(program.stderr.readline(), 30)).decode()
        async with stdio_tools() as tools:
            ctx = await tools.ok("debug", mode="connect", address=f"{found[1]}:{found[2]}", adapter="ruby",
                                 breakpoints=[{"file": str(ORDERS), "line": REPORT}], timeout=30)
            if ctx.get("reason") == "pause":  # rdbg pauses a program it attaches to
                ctx = await tools.ok("continue")
            assert ctx["reason"] == "breakpoint" and ctx["location"]["line"] == REPORT, ctx
            assert locals_of(ctx)["counts"] == '{"tea"=>2, "cake"=>1}', ctx
            await tools.ok("stop")
    finally:
        if program.returncode is None:
            program.kill()
        await program.wait()
