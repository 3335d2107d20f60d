"""Attach to running native and Go processes; connect to an adapter already listening on a TCP port."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
from pathlib import Path

from dap2mcp.adapters.go import DLV  # the Delve dap2mcp uses: its tool directory's, else PATH's

from conftest import INVOICE, PROGRAMS, connect_when_listening, free_port, locals_of, marker, running, stdio_tools

TICKER_C = PROGRAMS / "ticker.c"
TICKER_GO = PROGRAMS / "ticker_go"
ENDS = 60
"""A hang guard for a listening program's end once the session lets it go: it ends within a second."""


def _build_c(tmp_path: Path) -> str:
    exe = tmp_path / "ticker"
    subprocess.run(["cc", "-g", "-O0", "-o", str(exe), str(TICKER_C)], check=True)
    return str(exe)


def _build_go(tmp_path: Path) -> str:
    exe = tmp_path / "ticker_go"
    subprocess.run(["go", "build", "-gcflags=all=-N -l", "-o", str(exe), "."], cwd=TICKER_GO, check=True)
    return str(exe)


async def test_attach_to_a_running_c_process_and_detach(tmp_path: Path) -> None:
    with running([_build_c(tmp_path)]) as proc:
        async with stdio_tools() as tools:
            ctx = await tools.ok("debug", mode="attach", processId=proc.pid,
                                 breakpoints=[{"file": str(TICKER_C), "line": marker(TICKER_C, "tick")}])
            assert ctx["state"] == "paused" and ctx["location"]["function"] == "tick", ctx
            before = int(locals_of(ctx)["n"])
            ctx = await tools.ok("continue")
            assert int(locals_of(ctx)["n"]) == before + 1
            session = await tools.read_json("debugger://session")
            assert session["launchMode"] == "Attach" and session["processId"] == proc.pid
            stopped = await tools.ok("stop")
            assert stopped["state"] == "terminated" and stopped["description"].startswith("detached"), stopped
        assert proc.poll() is None, "detaching must leave the process running"


async def test_attach_to_a_running_go_process_shows_goroutines(tmp_path: Path) -> None:
    with running([_build_go(tmp_path)]) as proc:
        async with stdio_tools() as tools:
            source = TICKER_GO / "main.go"
            ctx = await tools.ok("debug", mode="attach", processId=proc.pid,
                                 breakpoints=[{"file": str(source), "line": marker(source, "tick")}])
            assert ctx["state"] == "paused" and ctx["location"]["function"] == "main.tick", ctx
            ctx = await tools.ok("context")
            names = [t["name"] for t in ctx["threads"]]
            assert len(names) >= 2 and any("main.tick" in n for n in names), names  # main and the worker, at least
            assert len(set(names)) == len(names) and all(n.lstrip("* ").startswith("[Go ") for n in names), names
            await tools.ok("stop")
        assert proc.poll() is None, "detaching must leave the process running"


async def test_connect_to_debugpy_listening_on_a_port() -> None:
    port = free_port()
    loop = marker(INVOICE, "loop")
    argv = [sys.executable, "-m", "debugpy", "--listen", f"127.0.0.1:{port}", "--wait-for-client", str(INVOICE)]
    listener = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        async with stdio_tools() as tools:
            ctx = await connect_when_listening(tools, f"127.0.0.1:{port}",
                                                breakpoints=[{"file": str(INVOICE), "line": loop}])
            assert ctx["state"] == "paused" and ctx["location"]["line"] == loop, ctx
            assert locals_of(ctx)["total"] == "0.0"
            assert (await tools.read_json("debugger://session"))["launchMode"] == "Attach"
            ctx = await tools.ok("step", mode="over")
            assert ctx["location"]["line"] == loop + 1
            await tools.ok("clear-breakpoints", all=True)
            end = await tools.ok("continue")
            assert end["reason"] == "exception" and end["exception"]["typeName"] == "SystemExit"  # sys.exit(1)
            end = await tools.ok("continue")
            assert end["state"] == "terminated"
        assert listener.wait(timeout=ENDS) == 1  # the program ran to its end (the bug makes it exit 1)
    finally:
        listener.kill()
        listener.wait()


async def test_connect_shows_what_the_remote_python_program_prints_and_says_its_exit_code_is_unknown(
        tmp_path: Path) -> None:
    """debugpy forwards a program's output over `connect` (or attach) only when told to (`redirectOutput`); the
    exit code only debugpy's launcher knows, so the end says it is not known rather than leaving it out silently."""
    program = tmp_path / "four.py"
    program.write_text("import sys\nfor i in range(4):\n    print(f'line {i}')\nsys.exit(4)\n")
    port = free_port()
    argv = [sys.executable, "-m", "debugpy", "--listen", f"127.0.0.1:{port}", "--wait-for-client", str(program)]
    listener = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        async with stdio_tools() as tools:
            ctx = await connect_when_listening(tools, f"127.0.0.1:{port}", timeout=30)
            while ctx["state"] != "terminated":  # past the stop at the uncaught SystemExit, if it came
                ctx = await tools.ok("continue", timeout=30)
            assert ctx.get("exitCode") is None and "exit code is not known" in ctx["description"], ctx
            text = (await tools.ok("output"))["text"]
            assert text == "line 0\nline 1\nline 2\nline 3\n", text
        assert listener.wait(timeout=ENDS) == 4
    finally:
        listener.kill()
        listener.wait()


async def test_connect_to_nothing_is_a_clear_error() -> None:
    async with stdio_tools() as tools:
        message = await tools.error("debug", "ADAPTER_FAILED", mode="connect", address=f"127.0.0.1:{free_port()}")
        assert "cannot connect" in message
        await tools.error("debug", "INVALID_ARGUMENT", mode="connect", address="nonsense")
        await tools.error("debug", "INVALID_ARGUMENT", mode="connect")
        ok = await tools.ok("debug", mode="source", path=str(INVOICE), args=["0"])
        assert ok["state"] == "terminated"


async def test_connect_to_a_listening_delve_and_launch_there() -> None:
    port = free_port()
    package = PROGRAMS.parent.parent / "examples" / "go"
    source = package / "main.go"
    listener = subprocess.Popen([DLV.require("delve"), "dap", f"--listen=127.0.0.1:{port}"], cwd=package,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert listener.stdout is not None and b"listening" in listener.stdout.readline()
        async with stdio_tools() as tools:
            ctx = await tools.ok("debug", mode="connect", address=f"127.0.0.1:{port}", adapter="delve",
                                 path=str(package), breakpoints=[{"file": str(source), "line": marker(source, "loop")}],
                                 timeout=120)
            assert ctx["state"] == "paused" and ctx["location"]["function"] == "main.invoiceTotal", ctx
            assert (await tools.read_json("debugger://session"))["launchMode"] == "Launch"  # launched over there
            ctx = await tools.ok("step", mode="over")
            assert ctx["location"]["line"] == marker(source, "loop") + 1
            await tools.ok("clear-breakpoints", all=True)
            end = await tools.ok("continue", timeout=60)  # the program's output comes over DAP, not to dlv's stdout
            assert end["state"] == "terminated" and end["exitCode"] == 1, end
            lines = end["output"]["text"].splitlines()  # stdout and stderr, in whichever order Delve read them
            assert "invoice total: 24.39" in lines and "expected:      27.00" in lines, end
            await tools.ok("stop")
        assert listener.wait(timeout=ENDS) == 0  # a single-use `dlv dap` ends with its session
    finally:
        listener.kill()
        listener.wait()


async def test_connect_to_a_listening_gdb_adapter_keeps_the_programs_output_whole(tmp_path: Path) -> None:
    """Over `connect` there is no FIFO of ours: the program's output comes as the adapter's "stdout", mixed
    with gdb's own notes, so nothing there is taken for gdb's: a line of the program that looks like one stays."""
    exe = tmp_path / "threads_text"
    source = tmp_path / "threads_text.c"
    source.write_text('#include <stdio.h>\nint main(void) {\n    printf("[New Thread 0x7fff (LWP 1)]\\n");\n'
                      '    printf("done\\n");\n    return 4;\n}\n')
    subprocess.run(["cc", "-g", "-O0", "-o", str(exe), str(source)], check=True)
    port = free_port()
    listener = subprocess.Popen(["cdtDebugAdapter", f"--server={port}"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    try:
        async with stdio_tools() as tools:
            for _ in range(100):  # until it listens
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
                await asyncio.sleep(0.1)
            started = await tools.ok("debug", mode="connect", address=f"127.0.0.1:{port}", adapter="gdb",
                                     path=str(exe), timeout=60)
            end = started if started["state"] == "terminated" else await tools.ok("wait", timeout=30)
            assert end["state"] == "terminated" and end["exitCode"] == 4, end
            text = end["output"]["text"]
            assert "[New Thread 0x7fff (LWP 1)]\ndone\n" in text, text
    finally:
        listener.kill()
        listener.wait()
