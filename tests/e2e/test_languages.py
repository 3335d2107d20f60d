"""The same bug hunt as for Python, in C, C++, Rust, Go and JavaScript, through each real adapter, over MCP stdio.

Every adapter must be installed (scripts/install.sh does it): a missing one fails here, loudly.
"""

from __future__ import annotations

import pytest

from conftest import ROOT, locals_of, marker, shown, stdio_tools

EXAMPLES = ROOT / "examples"
HUNTS = [
    pytest.param("lldb", EXAMPLES / "c" / "invoice.c", "invoice_total", "line_total", id="c-lldb"),
    pytest.param("lldb", EXAMPLES / "cpp" / "invoice.cpp", "invoice_total", "line_total", id="cpp-lldb"),
    pytest.param("lldb", EXAMPLES / "rust" / "invoice.rs", "invoice::invoice_total", "invoice::line_total",
                 id="rust-lldb"),
    pytest.param("gdb", EXAMPLES / "c" / "invoice.c", "invoice_total", "line_total", id="c-gdb"),
    pytest.param("gdb", EXAMPLES / "cpp" / "invoice.cpp", "invoice_total", "line_total", id="cpp-gdb"),
    pytest.param("delve", EXAMPLES / "go" / "main.go", "main.invoiceTotal", "main.lineTotal", id="go-delve"),
    pytest.param("node", EXAMPLES / "node" / "invoice.js", "invoiceTotal", "lineTotal", id="js-node"),
]


def _is(function: str, expected: str) -> bool:
    """C++ frames carry the parameter list: `line_total(const Item &)`."""
    return function == expected or function.startswith(expected + "(")


@pytest.mark.parametrize(("adapter", "source", "outer", "inner"), HUNTS)
async def test_bug_hunt(adapter: str, source, outer: str, inner: str) -> None:
    loop, in_line_total = marker(source, "loop"), marker(source, "line_total")
    async with stdio_tools() as tools:
        explicit = {"adapter": adapter} if adapter == "gdb" else {}  # lldb and delve are chosen from the file
        ctx = await tools.ok("debug", mode="source", path=str(source), **explicit,
                             breakpoints=[{"file": str(source), "line": loop}], timeout=120)
        assert ctx["state"] == "paused" and ctx["reason"] == "breakpoint", ctx
        assert ctx["location"]["file"] == shown(source, ctx) and ctx["location"]["line"] == loop
        assert _is(ctx["location"]["function"], outer)
        assert locals_of(ctx)["total"] == "0"
        assert not any(s["variables"] for s in ctx["scopes"] if s["name"].lower() == "registers")

        ctx = await tools.ok("step", mode="in")
        # Delve stops on the function's opening line first, the others on its first statement
        assert _is(ctx["location"]["function"], inner) and ctx["location"]["line"] in (in_line_total - 1, in_line_total)
        ctx = await tools.ok("step", mode="out")
        assert _is(ctx["location"]["function"], outer)
        if ctx["location"]["line"] == loop:  # back in the middle of the line that called it
            ctx = await tools.ok("step", mode="over")
        assert ctx["location"]["line"] == loop + 1  # total += subtotal
        ctx = await tools.ok("step", mode="over")
        assert locals_of(ctx)["total"] == "1000"
        diff = (await tools.ok("snapshot_diff", snapshot_id_1="@t-1", snapshot_id_2="@t0"))["diff"]
        assert {m["path"]: (m["oldValue"], m["newValue"]) for m in diff["modified"]}["total"] == ("0", "1000")
        ctx = await tools.ok("step", mode="over")
        assert locals_of(ctx)["total"] == "900"  # the bug: discounted inside the loop

        value = await tools.ok("evaluate", expression="total * 2")
        assert value["value"] == "1800"
        changed = await tools.ok("set-variable", name="total", value="5")
        assert changed["value"] == "5"
        assert (await tools.ok("evaluate", expression="total"))["value"] == "5"

        await tools.ok("clear-breakpoints", all=True)
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and end["exitCode"] == 1, end
        assert "invoice total: 24.3" not in end["output"]["text"]  # the changed total took effect
        assert "invoice total:" in end["output"]["text"] and "expected:      27.00" in end["output"]["text"]
        await tools.ok("stop")


@pytest.mark.parametrize(("adapter", "source"), [
    pytest.param("lldb", "broken.c", id="c"), pytest.param("lldb", "broken.rs", id="rust"),
    pytest.param("delve", "broken.go", id="go")])
async def test_compile_error_is_build_failed_with_the_compilers_words(adapter: str, source: str, tmp_path) -> None:
    program = tmp_path / source
    program.write_text({
        "broken.c": "int main(void) { return undeclared_thing; }\n",
        "broken.rs": "fn main() { let x: i32 = \"text\"; }\n",
        "broken.go": "package main\n\nfunc main() { var x int = \"text\" }\n",
    }[source])
    async with stdio_tools() as tools:
        message = await tools.error("debug", "BUILD_FAILED", mode="source", path=str(program), timeout=120)
        assert source in message
        assert {"broken.c": "undeclared_thing", "broken.rs": "mismatched types",
                "broken.go": "cannot use"}[source] in message
        assert "debug console" not in message  # Delve's advice: there is none here, and the details follow
        ok = await tools.ok("debug", mode="source", path=str(EXAMPLES / "c" / "invoice.c"), args=["0"])
        assert ok["state"] == "terminated" and ok["exitCode"] == 0  # the server carries on


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_continue_after_a_step_cut_short_by_a_breakpoint_reports_no_phantom_step(adapter: str) -> None:
    """lldb-dap keeps the `next` that a breakpoint interrupted and later reports its end as a step stop."""
    source = EXAMPLES / "c" / "invoice.c"
    loop, inner = marker(source, "loop"), marker(source, "line_total")
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(source), adapter=adapter,
                             breakpoints=[{"file": str(source), "line": loop}, {"file": str(source), "line": inner}])
        assert ctx["location"]["line"] == loop and locals_of(ctx)["i"] == "0"
        ctx = await tools.ok("step", mode="over")  # the call runs into the breakpoint in line_total
        assert ctx["reason"] == "breakpoint" and ctx["location"]["line"] == inner
        ctx = await tools.ok("continue")
        assert (ctx["reason"], ctx["location"]["line"]) == ("breakpoint", loop), ctx
        assert locals_of(ctx)["i"] == "1"
        await tools.ok("stop")


@pytest.mark.parametrize(("adapter", "source"), [
    pytest.param("lldb", EXAMPLES / "c" / "invoice.c", id="lldb"),
    pytest.param("gdb", EXAMPLES / "c" / "invoice.c", id="gdb"),
    pytest.param("delve", EXAMPLES / "go" / "main.go", id="delve")])
async def test_disassemble_and_what_the_program_loaded(adapter: str, source) -> None:
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(source), adapter=adapter,
                             breakpoints=[{"file": str(source), "line": marker(source, "loop")}], timeout=120)
        here = ctx["frames"][0]["instructionPointer"]
        assert here.startswith("0x"), ctx["frames"][0]
        code = (await tools.ok("disassemble", instructionCount=5))["instructions"]
        assert len(code) == 5 and int(code[0]["address"], 16) == int(here, 16)
        assert all(i["instruction"] for i in code)
        same = (await tools.ok("disassemble", memoryReference=here, instructionCount=5))["instructions"]
        assert same == code

        for kind in ("modules", "sources"):
            listed = await tools("info", type=kind)
            if (adapter, kind) == ("lldb", "modules"):  # the only one of these adapters with either capability
                assert listed["success"] and any(m["name"] == "invoice" for m in listed["items"]), listed
            else:
                assert listed["error"]["code"] == "NOT_SUPPORTED" and "supports" in listed["error"]["message"]
        await tools.ok("stop")


@pytest.mark.parametrize(("adapter", "source", "function"), [
    pytest.param("lldb", EXAMPLES / "rust" / "invoice.rs", "invoice::main", id="rust-lldb"),
    pytest.param("gdb", EXAMPLES / "cpp" / "invoice.cpp", "main", id="cpp-gdb"),
    pytest.param("delve", EXAMPLES / "go", "main.main", id="go-delve")])
async def test_stop_on_entry_stops_in_the_programs_main(adapter: str, source, function: str) -> None:
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(source), adapter=adapter, stopOnEntry=True, timeout=120)
        assert ctx["reason"] == "entry" and ctx["location"]["function"] == function, ctx
        assert ctx["location"]["file"] and ctx["location"]["line"]  # the program's source, not the loader's
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and end["exitCode"] == 1

