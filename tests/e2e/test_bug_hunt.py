"""A whole bug hunt through `dap2mcp serve` over stdio, driven by the MCP SDK's client."""

from __future__ import annotations

import os

from conftest import INVOICE, PROGRAMS, code_at, locals_of, marker, shown, stdio_tools

EXPECTED_TOOLS = {
    "debug", "stop", "restart", "breakpoint", "clear-breakpoints", "continue", "step", "pause",
    "context", "evaluate", "set-variable", "info", "disassemble", "wait", "output", "memory", "save-core",
    "record",
}
SNAPSHOT_TOOLS = {
    "snapshot_create", "snapshot_diff", "snapshot_list", "snapshot_delete", "snapshot_export", "snapshot_import",
}


async def test_tools_are_the_seeds_thirteen_with_truthful_annotations():
    async with stdio_tools() as tools:
        listed = {t.name: t for t in (await tools.client.list_tools()).tools}
    assert set(listed) == EXPECTED_TOOLS | SNAPSHOT_TOOLS
    for tool in listed.values():
        hints = tool.annotations
        assert hints is not None and None not in (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint)
        assert tool.output_schema is not None, tool.name
    assert listed["context"].annotations.read_only_hint is True
    assert listed["stop"].annotations.destructive_hint is True
    assert listed["step"].annotations.read_only_hint is False
    assert set(listed["debug"].input_schema["properties"]) >= {
        "mode", "path", "processId", "args", "cwd", "env", "breakpoints", "stopOnEntry"}
    assert set(listed["clear-breakpoints"].input_schema["properties"]) == {"file", "ids", "all", "sessionId"}
    assert set(listed["disassemble"].input_schema["properties"]) == {
        "memoryReference", "instructionOffset", "instructionCount", "sessionId"}


async def test_full_bug_hunt():
    loop, in_line_total, print_line = marker(INVOICE, "loop"), marker(INVOICE, "line_total"), marker(INVOICE, "print")
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(INVOICE),
                             breakpoints=[{"file": str(INVOICE), "line": loop}])
        assert ctx["state"] == "paused" and ctx["reason"] == "breakpoint"
        invoice = shown(INVOICE, ctx)  # relative to the server's directory, the checkout
        assert ctx["location"] == {"file": invoice, "line": loop, "function": "invoice_total",
                                   "text": code_at(INVOICE, loop)}
        assert [f["function"] for f in ctx["frames"]] == ["invoice_total", "main", "<module>"]
        assert locals_of(ctx)["total"] == "0.0"

        ctx = await tools.ok("step", mode="in")
        assert (ctx["location"]["function"], ctx["location"]["line"]) == ("line_total", in_line_total)
        assert ctx["reason"] == "step"
        ctx = await tools.ok("step", mode="out")
        assert ctx["location"]["function"] == "invoice_total"
        for _ in range(3):
            ctx = await tools.ok("step", mode="over")
        assert ctx["location"]["line"] == loop - 1  # back at the `for`
        assert locals_of(ctx)["total"] == "9.0"  # the bug: discounted inside the loop

        value = await tools.ok("evaluate", expression="total * 2")
        assert (value["value"], value["type"]) == ("18.0", "float")
        changed = await tools.ok("set-variable", name="total", value="100.5")
        assert changed["value"] == "100.5" and changed["type"] == "float"
        assert (await tools.ok("evaluate", expression="total"))["value"] == "100.5"

        bp = await tools.ok("breakpoint", function="apply_discount")
        assert bp["id"] > 1 and bp["function"] == "apply_discount"
        ctx = await tools.ok("continue")
        assert ctx["location"]["line"] == loop and locals_of(ctx)["item"].startswith("{'name': 'pen'")
        ctx = await tools.ok("continue")
        assert ctx["location"]["function"] == "apply_discount" and ctx["reason"] == "function breakpoint"
        await tools.ok("clear-breakpoints", ids=[bp["id"]])

        ctx = await tools.ok("continue", to={"file": str(INVOICE), "line": print_line})
        # the loop breakpoint comes first (next item), then the run-to target
        while ctx["location"]["line"] == loop:
            ctx = await tools.ok("continue", to={"file": str(INVOICE), "line": print_line})
        assert ctx["location"] == {"file": invoice, "line": print_line, "function": "main",
                                   "text": code_at(INVOICE, print_line)}

        cleared = await tools.ok("clear-breakpoints", all=True)
        assert cleared == {"success": True, "sessionId": "s1", "removed": [1], "remaining": 0}  # the temporary one was already gone
        ctx = await tools.ok("continue")  # sys.exit(1) is an uncaught SystemExit: debugpy stops on it
        assert ctx["reason"] == "exception" and ctx["exception"]["typeName"] == "SystemExit"
        assert "invoice total:" in ctx["output"]["text"]
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and end["exitCode"] == 1

        await tools.ok("breakpoint", file=str(INVOICE), line=loop)
        again = await tools.ok("restart", args=["0"])
        assert again["state"] == "paused" and again["location"]["line"] == loop
        assert locals_of(again)["discount_percent"] == "0"
        pid = int((await tools.ok("evaluate", expression="__import__('os').getpid()"))["value"])
        stopped = await tools.ok("stop")
        assert stopped["state"] == "terminated"
        assert not _alive(pid)
        await tools.error("context", "NO_SESSION")


async def test_restart_keeps_breakpoints_and_previous_args():
    loop = marker(INVOICE, "loop")
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(INVOICE), args=["50"],
                       breakpoints=[{"file": str(INVOICE), "line": loop}])
        await tools.ok("breakpoint", function="line_total")
        ctx = await tools.ok("restart")
        assert ctx["location"]["line"] == loop and locals_of(ctx)["discount_percent"] == "50"
        ctx = await tools.ok("continue")
        assert ctx["location"]["function"] == "line_total"
        await tools.ok("stop")


async def test_program_exit_reports_code_and_output():
    async with stdio_tools() as tools:
        end = await tools.ok("debug", mode="source", path=str(INVOICE), args=["0"])
        assert end["state"] == "terminated" and end["exitCode"] == 0
        assert "invoice total: 30.00" in end["output"]["text"]
        assert "expected:      30.00" in end["output"]["text"]  # stderr too
        await tools.error("step", "TERMINATED", mode="over")
        await tools.error("continue", "TERMINATED", to={"file": str(INVOICE), "line": 3})
        ctx = await tools.ok("context")
        assert ctx["state"] == "terminated" and ctx["exitCode"] == 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().split()[2] != "Z"


async def test_uncaught_exception_stop_reports_type_message_and_stack():
    crash = PROGRAMS / "crash.py"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(crash))
        assert ctx["state"] == "paused" and ctx["reason"] == "exception"
        assert ctx["location"]["line"] == marker(crash, "divide")
        assert ctx["exception"]["typeName"] == "ZeroDivisionError"
        assert "division by zero" in ctx["exception"]["message"]
        assert "divide(1, 0)" in ctx["exception"]["stackTrace"]
        assert ctx["output"]["text"] == "before the crash\n"
        await tools.ok("stop")
