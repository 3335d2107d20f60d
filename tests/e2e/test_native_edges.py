"""Native and Go edge cases: crashes, pauses, constructors, stdin, packages, bad targets, bad peers."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from dap2mcp.adapters.build import build
from dap2mcp.adapters.native import COMPILERS

from conftest import PROGRAMS, ROOT, code_at, locals_of, marker, pause_on, server_processes, shown, stdio_tools

INVOICE_C = ROOT / "examples" / "c" / "invoice.c"
SEGV = PROGRAMS / "segv.c"
CTOR = PROGRAMS / "ctor.c"


async def test_a_segfault_stops_as_an_exception_under_lldb_and_ends_the_program_under_gdb() -> None:
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(SEGV))
        assert ctx["state"] == "paused" and ctx["reason"] == "exception", ctx
        assert ctx["location"]["line"] == marker(SEGV, "crash") and "SIGSEGV" in ctx["description"]
        assert "about to crash" in ctx["output"]["text"]

        ctx = await tools.ok("debug", mode="source", path=str(SEGV), adapter="gdb")
        assert ctx["state"] == "paused" and ctx["reason"] == "exception" and "SIGSEGV" in ctx["description"], ctx
        assert ctx["location"]["line"] == marker(SEGV, "crash")
        end = await tools.ok("continue")  # gdb lets the signal kill it; it says so only in its console
        assert end["state"] == "terminated" and end["exitCode"] == 128 + 11, end
        await tools.error("step", "TERMINATED", mode="over")
        again = await tools.ok("debug", mode="source", path=str(INVOICE_C), adapter="gdb", args=["0"])
        assert again["state"] == "terminated" and again["exitCode"] == 0


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_hits_are_counted_even_where_the_adapter_does_not_name_the_breakpoint(adapter: str) -> None:
    loop = marker(INVOICE_C, "loop")
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(INVOICE_C), adapter=adapter,
                             breakpoints=[{"file": str(INVOICE_C), "line": loop}])
        bp = (await tools.read_json("debugger://breakpoints"))["breakpoints"][0]
        assert ctx["breakpointIds"] == [bp["id"]]
        await tools.ok("breakpoint", function="apply_discount")
        ctx = await tools.ok("continue")
        assert ctx["location"]["function"] == "apply_discount" and len(ctx["breakpointIds"]) == 1
        ctx = await tools.ok("continue")
        assert ctx["breakpointIds"] == [bp["id"]]
        counts = {b["id"]: b["hitCount"] for b in (await tools.read_json("debugger://breakpoints"))["breakpoints"]}
        assert counts[bp["id"]] == 2 and sorted(counts.values()) == [1, 2], counts
        await tools.ok("stop")


@pytest.mark.parametrize(("adapter", "program"), [
    pytest.param("lldb", PROGRAMS / "ticker.c", id="lldb"), pytest.param("gdb", PROGRAMS / "ticker.c", id="gdb"),
    pytest.param("delve", PROGRAMS / "ticker_go", id="delve")])
async def test_pause_a_running_program_says_pause_and_where(adapter: str, program: Path) -> None:
    """The program sleeps most of the time, so a pause mostly lands in the C library's or Go's own code: the
    context is shown at the program's frame that called it, and a step goes on from that frame."""
    source = program / "main.go" if program.is_dir() else program
    async with stdio_tools() as tools:
        running = await tools.ok("debug", mode="source", path=str(program), adapter=adapter, timeout=1)
        assert running["state"] == "running"
        waited = 0
        while "ticking" not in (printed := (await tools.ok("output"))["text"]):  # in main: on a busy machine a
            assert waited < 300, printed  # pause 1 s after the start landed in the dynamic loader, before main
            await asyncio.sleep(0.1)
            waited += 1
        ctx = await tools.ok("pause")
        assert ctx["state"] == "paused" and ctx["reason"] == "pause", ctx
        assert "exception" not in ctx and ctx["frames"], ctx
        assert ctx["location"]["file"] == shown(source, running), ctx
        focused = ctx["location"]["function"]
        recorded = json.loads((await tools.ok("snapshot_export", snapshot_id=f"@c{ctx['cycle']}"))["data"])
        assert recorded["snapshot"]["functionName"] == focused, recorded["snapshot"]  # the frame the context shows
        if focused in ("main", "main.main"):
            assert "count" in locals_of(ctx), ctx["scopes"]
            assert (await tools.ok("evaluate", expression="count"))["value"].isdigit()  # in that frame too
        ctx = await tools.ok("context")
        assert ctx["state"] == "paused" and ctx["frames"] and ctx["location"]["function"] == focused
        ctx = await tools.ok("step", mode="over")
        assert ctx["reason"] == "step", ctx
        assert (ctx["location"]["file"], ctx["location"]["function"]) == (shown(source, running), focused), ctx
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_stop_on_entry_after_code_that_runs_before_main(adapter: str) -> None:
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(CTOR), adapter=adapter, stopOnEntry=True,
                             breakpoints=[{"file": str(CTOR), "line": marker(CTOR, "setup")}])
        assert (ctx["reason"], ctx["location"]["function"]) == ("breakpoint", "setup"), ctx
        ctx = await tools.ok("continue")
        assert (ctx["reason"], ctx["location"]["function"]) == ("entry", "main"), ctx
        listed = (await tools.read_json("debugger://breakpoints"))["breakpoints"]
        assert [b["line"] for b in listed] == [marker(CTOR, "setup")]
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and "configured 7" in end["output"]["text"]


@pytest.mark.parametrize("flushed", [True, False], ids=["printed-while-running", "flushed-at-exit"])
async def test_a_program_printing_gdbs_end_of_program_text_is_not_taken_for_ended(flushed: bool) -> None:
    """gdb tells of a program's end only in text on the same stream as the program's output. Printed
    while the program runs, the text is the program's; flushed at its exit, it comes before gdb's own."""
    spoof = PROGRAMS / "spoof.c"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(spoof), adapter="gdb", args=[] if flushed else ["late"],
                             breakpoints=[{"file": str(spoof), "line": marker(spoof, "loop")}])
        assert ctx["state"] == "paused" and ctx["reason"] == "breakpoint", ctx
        assert ("exited with code 07" in ctx.get("output", {}).get("text", "")) is flushed
        await tools.ok("clear-breakpoints", all=True)
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and end["exitCode"] == 3, end
        assert "total 3" in end["output"]["text"]


@pytest.mark.parametrize("adapter", ["lldb", "gdb", "delve"])
async def test_the_output_at_the_end_is_the_programs_alone(adapter: str) -> None:
    """Not the adapter's own lines about it: lldb's "Process N exited with status = 0", Delve's "Process N has
    exited with status 0", gdb's libthread_db notes and "[Inferior 1 (process N) exited normally]"."""
    program, printed = (PROGRAMS / "calls_go" / "main.go", "29800\n") if adapter == "delve" else \
        (PROGRAMS / "outer_array.c", "4\n")
    async with stdio_tools() as tools:
        end = await tools.ok("debug", mode="source", path=str(program), adapter=adapter, timeout=120)
        assert end["state"] == "terminated" and end["exitCode"] == 0, end
        assert end["output"]["text"] == printed, end["output"]
        assert (await tools.ok("output"))["text"] == printed


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_native_programs_read_end_of_file_from_stdin(adapter: str) -> None:
    """Not a terminal nobody types into; and gdb's `< /dev/null` stays out of the program's arguments."""
    async with stdio_tools() as tools:
        end = await tools.ok("debug", mode="source", path=str(PROGRAMS / "reads.c"), adapter=adapter,
                             args=["two words", "<", "x"], timeout=60)
        assert end["state"] == "terminated" and end["exitCode"] == 0, end
        assert "read 0 lines; args: [two words] [<] [x]" in end["output"]["text"], end["output"]
        assert "initCommands" not in end["output"]["text"] and "input-path" not in end["output"]["text"]


async def test_go_programs_read_end_of_file_from_stdin_and_go_files_build_as_their_package() -> None:
    async with stdio_tools() as tools:
        end = await tools.ok("debug", mode="source", path=str(PROGRAMS / "go_stdin" / "main.go"), timeout=120)
        assert end["state"] == "terminated" and "read 0 lines" in end["output"]["text"], end
        main = PROGRAMS / "go_multi" / "main.go"
        helper = PROGRAMS / "go_multi" / "helper.go"
        ctx = await tools.ok("debug", mode="source", path=str(main), timeout=120,
                             breakpoints=[{"file": str(helper), "line": marker(helper, "helper")}])
        assert ctx["location"]["function"] == "main.helper" and locals_of(ctx)["n"] == "20", ctx
        await tools.ok("stop")


async def test_rust_builds_with_the_2021_edition() -> None:
    source = PROGRAMS / "edition.rs"
    async with stdio_tools() as tools:
        end = await tools.ok("debug", mode="source", path=str(source))
        assert end["state"] == "terminated" and "clamped to 255" in end["output"]["text"], end


@pytest.mark.parametrize(("flags", "crate"), [
    pytest.param([], "edition", id="legacy"),
    pytest.param(["-C", "symbol-mangling-version=v0"], "edition", id="v0"),
    pytest.param(["-C", "symbol-mangling-version=v0", "--crate-name", "_edition"], "_edition", id="v0-underscore")])
async def test_a_rust_executable_stops_on_entry_in_its_own_main(tmp_path: Path, flags: list[str], crate: str) -> None:
    """Not in the C `main` that Rust's runtime runs first; found under either symbol mangling."""
    exe = tmp_path / "clamp"
    subprocess.run(["rustc", "-g", "-C", "opt-level=0", *flags, "--edition", "2021", "-o", str(exe),
                    str(PROGRAMS / "edition.rs")], check=True)
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="binary", path=str(exe), stopOnEntry=True)
        assert (ctx["reason"], ctx["location"]["function"]) == ("entry", f"{crate}::main"), ctx
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and "clamped to 255" in end["output"]["text"], end


async def test_rust_strings_vectors_and_maps_show_their_contents() -> None:
    """Through the toolchain's own lldb formatters: without them a `String` is `alloc::string::String @ 0x7ff…`
    and the only way to read it is to chase `vec.buf.inner.ptr` by hand. And Rust's frames read as Rust."""
    stock = PROGRAMS / "stock.rs"
    async with stdio_tools() as tools:
        inner = await tools.ok("debug", mode="source", path=str(stock),
                               breakpoints=[{"file": str(stock), "line": marker(stock, "closure")}])
        assert inner["state"] == "paused" and "description" not in inner, inner  # not lldb's own "breakpoint 1.1"
        functions = [frame["function"] for frame in inner["frames"]]  # lldb leaves legacy escapes in some
        assert functions[0] == "stock::main::{{closure}}" and "stock::main" in functions, functions
        assert "core::iter::adapters::map::map_fold::{{closure}}" in functions and not any("$" in f for f in functions)
        await tools.ok("clear-breakpoints", all=True)
        ctx = await tools.ok("continue", to={"file": str(stock), "line": marker(stock, "print")})
        assert [frame["function"] for frame in ctx["frames"]] == ["stock::main"]  # not the runtime's 17 below it
        assert "framesTruncated" not in ctx and "totalFrames" not in ctx, ctx  # nothing more to ask for
        registers = next(scope for scope in ctx["scopes"] if scope["name"] == "Registers")
        assert registers["expensive"] and "truncated" not in registers, registers  # unexpanded is not "cut"
        values = locals_of(ctx)
        assert values["name"] == '"pear"' and values["label"] == '"fruit"', values
        assert values["items"] == "size=3 [3, 1, 4]" and values["stock"] == 'size=1 [("apple", 2)]', values
        assert values["seen"] == 'size=1 ["kiwi"]', values  # the set's provider takes show_values: it read {base: …}
        assert (await tools.ok("evaluate", expression="items[2]"))["value"] == "4"
        refused = await tools.error("set-variable", "ADAPTER_ERROR", name="items", value="vec![]")
        assert "set one of them ('items.field', 'items[0]')" in refused, refused  # not lldb's bare "failed"
        snapshot = await tools.ok("snapshot_create", depth=1)
        exported = json.loads((await tools.ok("snapshot_export", snapshot_id=snapshot["snapshot"]["id"]))["data"])
        children = {node["name"]: [child["value"] for child in node["children"]] for node in exported["root"]["children"]}
        assert children["items"] == ["3", "1", "4"] and children["stock"] == ['("apple", 2)'], children
        ended = await tools.ok("continue")
        if ended["state"] == "paused":  # the println! line has a second location
            ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and "(lldb)" not in ended["output"]["text"], ended["output"]
        assert 'pear [3, 1, 4] {"apple": 2} fruit 16 {"kiwi"}' in ended["output"]["text"]


async def test_an_adapter_named_for_a_language_it_does_not_debug_is_refused_with_the_right_one() -> None:
    """Else the adapter's own words come back: gdb's "not in executable format", lldb's "not a valid executable"."""
    async with stdio_tools() as tools:
        for path, adapter, right in [(PROGRAMS / "stock.rs", "gdb", "lldb"), (ROOT / "examples" / "python" / "invoice.py",
                                                                               "lldb", "debugpy"),
                                     (INVOICE_C, "delve", "lldb")]:
            message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(path), adapter=adapter)
            assert f"the {adapter} adapter does not debug '{path.suffix}' files" in message, message
            assert f"pass adapter '{right}'" in message
        ok = await tools.ok("debug", mode="source", path=str(INVOICE_C), adapter="gdb", args=["0"])
        assert ok["state"] == "terminated" and ok["exitCode"] == 0


async def test_a_cut_go_stack_is_said_to_be_cut_without_delves_made_up_count() -> None:
    """Delve answers a stackTrace for 2 of 4 frames with totalFrames 52, an estimate."""
    program = ROOT / "examples" / "go" / "main.go"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program),
                       breakpoints=[{"file": str(program), "line": marker(program, "line_total")}], timeout=120)
        whole = await tools.ok("context", maxFrames=50)  # all of it: runtime.main and runtime.goexit counted, not shown
        assert [f["function"] for f in whole["frames"]] == ["main.lineTotal", "main.invoiceTotal", "main.main"]
        assert "framesTruncated" not in whole and "totalFrames" not in whole, whole  # all an agent can get
        cut = await tools.ok("context", maxFrames=2)
        assert len(cut["frames"]) == 2 and cut["framesTruncated"] is True and "totalFrames" not in cut, cut
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_set_variable_reaches_a_field_or_an_element_by_its_path(adapter: str) -> None:
    """lldb-dap 19 and cdt-gdb-adapter take no `setExpression`: the path is walked child by child."""
    fields = PROGRAMS / "fields.c"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(fields), adapter=adapter,
                       breakpoints=[{"file": str(fields), "line": marker(fields, "print")}])
        assert (await tools.ok("set-variable", name="s.sum", value="1.5"))["value"] == "1.5"
        assert (await tools.ok("set-variable", name="xs[1]", value="7"))["value"] == "7"
        assert "'s' has no field 'nope'" in await tools.error("set-variable", "INVALID_ARGUMENT", name="s.nope", value="1")
        assert "no variable named 'q'" in await tools.error("set-variable", "INVALID_ARGUMENT", name="q.x", value="1")
        await tools.ok("clear-breakpoints", all=True)
        ended = await tools.ok("continue")
        assert "sum=1.5 n=3 xs1=7" in ended["output"]["text"], ended


async def test_under_gdb_a_line_of_output_keeps_its_leading_digits(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """gdb runs the program on the stdout cdt-gdb-adapter parses as MI, where `42` is token 4 and text `2`."""
    digits = PROGRAMS / "digits.c"
    scratch = tmp_path / "tmp"  # the server's own: pipes of other tests' sessions, running beside it, stay out
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    async with stdio_tools() as tools:
        for _ in range(2):  # and again in a restart, through the same kind of pipe
            ended = await tools.ok("debug", mode="source", path=str(digits), adapter="gdb")
            assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
            lines = ended["output"]["text"].splitlines()
            assert {"42", "7 apples", "123abc"} <= set(lines), lines  # stdout comes at exit, stderr at once
        await tools.ok("stop")
    assert not list(scratch.glob("dap2mcp-output-*"))  # each pipe removed with its session


async def test_the_stack_ends_below_the_outermost_main_of_a_recursive_one() -> None:
    recmain = PROGRAMS / "recmain.c"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(recmain), adapter="lldb",
                             breakpoints=[{"file": str(recmain), "line": marker(recmain, "helper")}])
        assert [f["function"] for f in ctx["frames"]] == ["helper", "main", "main", "main", "main"], ctx["frames"]
        assert "framesTruncated" not in ctx, ctx  # the C runtime's frames below are no more to get
        top = await tools.ok("context", maxFrames=2)  # a page that does not reach the bottom is cut, count unknown
        assert [f["function"] for f in top["frames"]] == ["helper", "main"] and top["framesTruncated"], top
        assert "totalFrames" not in top, top  # lldb's count holds the runtime's frames, which are not shown
        # a page past the outermost main that stops short of the bottom: cut there, and complete
        most = await tools.ok("context", maxFrames=6)
        assert [f["function"] for f in most["frames"]] == ["helper", "main", "main", "main", "main"], most["frames"]
        assert "framesTruncated" not in most, most
        await tools.ok("stop")


async def test_a_go_goroutine_can_be_named_while_the_program_runs() -> None:
    """Delve lists only a placeholder thread while the program runs (and at most 1024 goroutines): an id
    missing from its list is no reason to refuse."""
    ticker = PROGRAMS / "ticker_go" / "main.go"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(ticker), timeout=120,
                             breakpoints=[{"file": str(ticker), "line": marker(ticker, "tick")}])
        goroutine = ctx["threadId"]
        await tools.ok("clear-breakpoints", all=True)
        assert (await tools.ok("continue", timeout=0.5))["state"] == "running"
        paused = await tools.ok("pause", threadId=goroutine)
        assert paused["state"] == "paused", paused
        await tools.ok("stop")


async def test_a_go_panic_is_shown_where_the_program_caused_it_not_in_the_runtime() -> None:
    program = PROGRAMS / "go_panic" / "main.go"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(program), timeout=120)
        assert ctx["state"] == "paused" and ctx["reason"] == "exception" and "index out of range" in str(ctx["exception"])
        assert ctx["frames"][0]["function"].startswith("runtime.")  # the whole stack, as the adapter gave it
        assert ctx["location"] == {"file": shown(program, ctx), "line": marker(program, "index"), "function": "main.at",
                                   "text": code_at(program, marker(program, "index"))}
        assert locals_of(ctx)["i"] == "5", ctx["scopes"]
        assert (await tools.ok("evaluate", expression="len(xs)"))["value"] == "3"  # in that frame too
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_a_crash_inside_the_c_library_is_shown_where_the_program_called_it(adapter: str) -> None:
    """The top frame is libc's `strlen`, whose source is not here: the context shows the caller's."""
    program = PROGRAMS / "strlen_null.c"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(program), adapter=adapter)
        assert ctx["state"] == "paused" and ctx["reason"] == "exception", ctx
        assert "strlen" in ctx["frames"][0]["function"]  # the whole stack, as the adapter gave it
        assert (ctx["location"]["function"], ctx["location"]["line"]) == ("measure", marker(program, "strlen"))
        assert "s" in locals_of(ctx), ctx["scopes"]
        assert (await tools.ok("evaluate", expression="s == 0"))["value"] in ("true", "1")
        short = await tools.ok("context", maxFrames=1)  # the focus does not move with how many frames are listed
        assert len(short["frames"]) == 1 and "strlen" in short["frames"][0]["function"], short["frames"]
        assert short["location"] == ctx["location"] and "s" in locals_of(short), short  # found by a user
        await tools.ok("stop")


async def test_targets_in_the_wrong_mode_are_refused_with_the_right_mode(tmp_path: Path) -> None:
    exe = tmp_path / "a.out"
    subprocess.run(["cc", "-g", "-O0", "-o", str(exe), str(INVOICE_C)], check=True)
    async with stdio_tools() as tools:
        assert "mode 'source'" in await tools.error("debug", "INVALID_ARGUMENT", mode="binary", path=str(INVOICE_C))
        assert "mode 'binary'" in await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(exe))
        assert "directory" in await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(tmp_path))
        end = await tools.ok("debug", mode="binary", path=str(exe), args=["0"])  # a.out: sniffed, not by name
        assert end["state"] == "terminated" and end["exitCode"] == 0


async def test_attaching_to_the_debugger_itself_is_refused() -> None:
    async with stdio_tools() as tools:
        (server,) = server_processes()
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="attach", processId=server.pid, adapter="lldb")
        assert "this debugger" in message
        parent = server.parent()
        assert parent is not None
        await tools.error("debug", "INVALID_ARGUMENT", mode="attach", processId=parent.pid, adapter="lldb")
        assert (await tools.ok("debug", mode="source", path=str(INVOICE_C), args=["0"]))["exitCode"] == 0


async def test_connect_to_something_that_is_not_a_debug_adapter_fails_at_once() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def greet() -> None:  # an SSH server: says its version, then waits for the client's
        conn, _ = listener.accept()
        conn.sendall(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")
        time.sleep(40)
        conn.close()

    threading.Thread(target=greet, daemon=True).start()
    try:
        async with stdio_tools() as tools:
            message = await tools.error("debug", "ADAPTER_FAILED", mode="connect", address=f"127.0.0.1:{port}")
            assert "not a DAP message header (is the peer a debug adapter?)" in message, message  # not a timeout
    finally:
        listener.close()


def test_concurrent_builds_of_one_source_all_succeed() -> None:
    compiler = COMPILERS[".c"]

    async def builds() -> list[str]:
        return await asyncio.gather(*(asyncio.to_thread(build, compiler.tool.require("lldb"), compiler.argv, str(INVOICE_C))
                                      for _ in range(4)))

    outputs = asyncio.run(builds())
    assert len(set(outputs)) == 1 and Path(outputs[0]).is_file()
    assert not list(Path(outputs[0]).parent.glob("*.partial"))


@pytest.mark.parametrize(("adapter", "program"), [
    ("lldb", PROGRAMS / "calls.c"), ("gdb", PROGRAMS / "calls.c"), ("delve", PROGRAMS / "calls_go" / "main.go")])
async def test_continue_to_a_function_the_program_lacks_is_refused_before_it_moves(adapter: str, program: Path) -> None:
    """Set anyway, the `to` breakpoint would never bind and the program would run to its end."""
    async with stdio_tools() as tools:
        entry = await tools.ok("debug", mode="source", path=str(program), adapter=adapter, stopOnEntry=True)
        assert entry["state"] == "paused", entry
        message = await tools.error("continue", "INVALID_ARGUMENT", to={"function": "no_such_function"})
        assert "no_such_function" in message and "did not move" in message
        again = await tools.ok("context")
        assert (again["state"], again["cycle"], again["location"]) == ("paused", entry["cycle"], entry["location"])
        assert (await tools.ok("continue", to={"function": "leaf"}))["location"]["function"].endswith("leaf")
        # a `to` on a function that already has a breakpoint: lldb-dap keeps one per name, Delve refuses a second
        await tools.ok("breakpoint", function="middle")
        assert (await tools.ok("continue", to={"function": "middle"}))["location"]["function"].endswith("middle")


@pytest.mark.parametrize("adapter", ["lldb", "gdb", "delve"])
async def test_an_expression_that_cannot_be_evaluated_is_an_error_not_a_value(adapter: str) -> None:
    """cdt-gdb-adapter answers such an `evaluate` with success and the text of an error as its result."""
    program = PROGRAMS / ("calls_go/main.go" if adapter == "delve" else "calls.c")
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), adapter=adapter,
                       breakpoints=[{"file": str(program), "line": marker(program, "leaf")}])
        await tools.error("evaluate", "ADAPTER_ERROR", expression="no_such_name + 1")
        assert (await tools.ok("evaluate", expression="x + 1"))["value"] == str(int(locals_of(await tools.ok("context"))["x"]) + 1)
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_a_frame_whose_variables_the_adapter_cannot_list_still_gives_a_context(adapter: str) -> None:
    """The scope says why; the rest of the stop is there, and `evaluate` still reads the frame."""
    program = PROGRAMS / "outer_array.c"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(program), adapter=adapter,
                             breakpoints=[{"file": str(program), "line": marker(program, "add")}])
        caller = ctx["frames"][1]
        outer = await tools.ok("context", frameId=caller["id"])
        assert outer["location"]["function"] == "main" and outer["location"]["line"] == caller["line"]
        assert [f["function"] for f in outer["frames"]] == [f["function"] for f in ctx["frames"]]  # gdb renumbers
        local = next(s for s in outer["scopes"] if s["name"] in ("Locals", "Local"))
        assert {v["name"] for v in local["variables"]} >= {"arr", "total"}, local
        if adapter == "gdb":  # cdt-gdb-adapter 1.7.0: "No symbol "arr" in current context.", listed through gdb's own
            message = await tools.error("snapshot_create", "ADAPTER_ERROR", frame_index=1)
            assert "frame 1 (`main`)" in message and "arr" in message and "nothing was saved" in message, message
            assert (await tools.ok("snapshot_list"))["count"] == 0
        else:
            assert (await tools.ok("snapshot_create", frame_index=1))["snapshot"]["functionName"] == "main"
        assert (await tools.ok("evaluate", expression="arr[2]", frameId=caller["id"]))["value"] == "3"
        assert locals_of(await tools.ok("context"))["s"]  # the top frame reads as before
        await tools.ok("stop")


async def test_function_breakpoints_get_their_own_answers_from_lldb() -> None:
    """lldb-dap 19 answers `setFunctionBreakpoints` in an order of its own: taken in the request's order, the
    unknown function's answer went to the hidden entry breakpoint on `main`, and stops were credited to the
    wrong breakpoint."""
    program = PROGRAMS / "calls.c"
    async with stdio_tools() as tools:
        entry = await tools.ok("debug", mode="source", path=str(program), adapter="lldb", stopOnEntry=True,
                               breakpoints=[{"function": "no_such_function"}, {"function": "middle"},
                                            {"function": "leaf"}])
        assert entry["reason"] == "entry" and "breakpointIds" not in entry, entry
        assert any("no_such_function" in note for note in entry["breakpointNotes"]), entry
        first, second = await tools.ok("continue"), await tools.ok("continue")
        assert (first["location"]["function"], first["breakpointIds"]) == ("middle", [2]), first
        assert (second["location"]["function"], second["breakpointIds"]) == ("leaf", [3]), second
        await tools.ok("clear-breakpoints", ids=[2])
        assert (await tools.ok("continue"))["breakpointIds"] == [3]  # the second leaf call; middle no longer stops
        await tools.ok("stop")


async def test_a_frame_the_adapter_cannot_list_is_listed_and_its_changes_seen() -> None:
    """Under gdb a pause in `usleep` shows `main`, whose array cdt-gdb-adapter cannot list (it was `unreadable`,
    and `{"since": N}` alone would have said nothing changed while `arr[0]` went on counting): listed through
    gdb's `info locals`, the array shows its elements, and the next pause sees them change."""
    program = PROGRAMS / "array_ticker.c"
    async with stdio_tools() as tools:
        assert (await tools.ok("debug", mode="source", path=str(program), adapter="gdb", timeout=1))["state"] == "running"
        first = await tools.ok("pause")
        assert first["location"]["function"] == "main" and "unreadable" not in first["scopes"][0], first
        before = locals_of(first)["arr"]
        assert before.startswith("{") and before.endswith(", 0}"), before
        assert (await tools.ok("continue", timeout=0.3))["state"] == "running"
        second = await tools.ok("pause")
        assert second["location"]["function"] == "main", second
        changed = second["changes"]["modified"]
        assert [(c["name"], c["oldValue"]) for c in changed] == [("arr", before)] and changed[0]["newValue"] != before
        await tools.ok("stop")


async def test_pauses_after_a_step_that_never_ends_all_stop_under_lldb() -> None:
    """With the step still under way, lldb names a pause's stop `step` ("trace") or a breakpoint of its own;
    taken for a stray step stop, it was continued past and the pause waited out its timeout (about one in
    three runs of this sequence)."""
    program = PROGRAMS / "spin.c"
    async with stdio_tools() as tools:
        assert (await tools.ok("debug", mode="source", path=str(program), adapter="lldb", timeout=1))["state"] == "running"
        # on a loaded machine the first pause may come before main's loop
        await pause_on(tools, [marker(program, "spin")], guard=60, normal="the first pause, main's loop begins at once")
        assert (await tools.ok("step", mode="over", timeout=1))["state"] == "running"  # a step of the loop never ends
        for turn in range(6):
            paused = await tools.ok("pause", timeout=30)  # under a second normally; a pause that waits it out answers "running"
            assert (paused["state"], paused.get("reason")) == ("paused", "pause"), (turn, paused)
            assert (await tools.ok("continue", timeout=0.3))["state"] == "running"
        await tools.ok("stop")


async def test_stop_on_entry_with_a_breakpoint_on_main_under_lldb_leaves_no_stand_in_behind() -> None:
    """lldb-dap keeps one breakpoint per name, so the hidden entry breakpoint on `main` shares the agent's:
    it never got an answer of its own, stayed, and later stops in `main` read "reached the `to` location"."""
    program = PROGRAMS / "calls.c"
    async with stdio_tools() as tools:
        entry = await tools.ok("debug", mode="source", path=str(program), adapter="lldb", stopOnEntry=True,
                               breakpoints=[{"function": "main"}])
        assert entry["location"]["function"] == "main" and entry["reason"] == "entry", entry
        await tools.ok("breakpoint", file=str(program), line=marker(program, "top") + 9)  # main's return
        later = await tools.ok("continue")
        assert later["location"]["function"] == "main" and later["reason"] == "breakpoint", later
        assert "`to`" not in later.get("description", ""), later
        await tools.ok("stop")


async def test_under_gdb_calls_behind_an_evaluation_still_running_are_refused_at_once_until_stop() -> None:
    """gdb runs one command at a time: while a function an evaluation called still runs, `context` and `pause`
    each waited out a 10 s timeout of their own and answered a bare "did not answer 'stackTrace'"; now they
    are refused at once, naming the evaluation, and `stop` ends it all (found by an exploratory user)."""
    async with stdio_tools() as tools:
        paused = await tools.ok("debug", mode="source", path=str(INVOICE_C), adapter="gdb",
                                breakpoints=[{"file": str(INVOICE_C), "line": marker(INVOICE_C, "loop")}])
        assert paused["state"] == "paused", paused
        slow = await tools.error("evaluate", "TIMEOUT", expression="(unsigned)sleep(60)", timeout=1)
        assert "`pause`" not in slow and "`stop` or `restart`" in slow, slow
        for tool, arguments in (("context", {}), ("pause", {"timeout": 5})):
            refused = await tools.error(tool, "TIMEOUT", **arguments)
            assert "sleep(60)" in refused and "one at a time" in refused, (tool, refused)
        stopped = await tools.ok("stop")
        assert stopped["state"] == "terminated", stopped


async def test_delve_refuses_to_set_a_variable_of_an_outer_frame_rather_than_set_the_innermost_ones() -> None:
    """Delve 1.20 sets a variable in the innermost frame whatever frame is named: `n` of `main` asked for, the
    `n` of the function it called was changed, and the answer said it was done (found by an exploratory user);
    Delve 1.27 shows the outer frame's new value, but the program prints the old one."""
    program = PROGRAMS / "same_name_go" / "main.go"
    async with stdio_tools() as tools:
        paused = await tools.ok("debug", mode="source", path=str(program), timeout=120,
                                breakpoints=[{"file": str(program), "line": marker(program, "inner")}])
        inner, outer = paused["frames"][0], paused["frames"][1]
        assert (inner["function"], outer["function"]) == ("main.inner", "main.main"), paused["frames"]
        refused = await tools.error("set-variable", "NOT_SUPPORTED", name="n", value="100", frameId=outer["id"])
        assert "innermost frame" in refused, refused
        assert (await tools.ok("evaluate", expression="n", frameId=outer["id"]))["value"] == "5"
        assert (await tools.ok("set-variable", name="n", value="100"))["value"] == "100"
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and "5 200" in end["output"]["text"], end


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_a_crash_inside_a_cpp_library_header_is_shown_at_the_programs_call(adapter: str) -> None:
    """An out-of-range `.at()` aborts inside `std::vector::_M_range_check`, whose header is on this machine
    (/usr/include/c++/12/bits/stl_vector.h): the context focused there, where the program's names are not in
    scope, as if it were the program's own code (found by an exploratory user)."""
    program = PROGRAMS / "at_range.cpp"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(program), adapter=adapter)
        assert ctx["state"] == "paused" and ctx["reason"] == "exception", ctx
        assert (ctx["location"]["function"].split("(")[0], ctx["location"]["line"]) == ("pick", marker(program, "at")), \
            ctx["location"]
        assert (await tools.ok("evaluate", expression="index"))["value"] == "5"
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_a_step_in_on_a_range_for_goes_to_the_programs_call_not_the_iterators_operators(adapter) -> None:
    """lldb's step in entered libstdc++'s `__gnu_cxx::operator!=` in stl_iterator.h, then `base()`, before
    the program's own call, gdb's `vector::begin` (issue 36 point 7); both pass over the C++ library's functions."""
    program = PROGRAMS / "range_for.cpp"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), adapter=adapter,
                       breakpoints=[{"file": str(program), "line": marker(program, "loop")}])
        places = []
        for _ in range(2):
            stepped = await tools.ok("step", mode="in")
            places.append((stepped["location"]["file"].rsplit("/", 1)[-1], stepped["location"]["line"]))
        assert places == [("range_for.cpp", marker(program, "call")), ("range_for.cpp", marker(program, "price"))], places
        await tools.ok("stop")

