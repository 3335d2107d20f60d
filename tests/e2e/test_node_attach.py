"""A Node program already running, reached by js-debug: mode `attach` (by pid: dap2mcp opens the process's inspector
with SIGUSR1, on the port its --inspect-port names) and mode `connect` (the address of an inspector opened with
--inspect-brk), with a path mapping. Every inspector listens on a free port, never Node's default 9229, so tests
on parallel workers do not collide.
"""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import psutil

from dap2mcp.adapters.node_inspector import inspector_address

from conftest import PROGRAMS, free_port, locals_of, marker, running, stdio_tools

TICKER = PROGRAMS / "ticker.js"
TICK = marker(TICKER, "tick")


def listening(pid: int) -> set[int]:
    return {c.laddr.port for c in psutil.Process(pid).net_connections("tcp") if c.status == psutil.CONN_LISTEN}


def below_the_server() -> list[psutil.Process]:
    """What the test's dap2mcp server started and is still running (js-debug's server)."""
    found = []
    for server in psutil.Process().children():
        try:
            found += [p for p in server.children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE]
        except psutil.Error:
            continue
    return found


def test_the_inspector_port_is_read_as_node_reads_it() -> None:
    assert inspector_address(["node", "app.js"]) == ("127.0.0.1", 9229)
    assert inspector_address(["node", "--inspect-port=4100", "app.js", "--inspect-port=1"]) == ("127.0.0.1", 4100)
    assert inspector_address(["node", "--inspect-port", "4101", "app.js"]) == ("127.0.0.1", 4101)
    assert inspector_address(["node", "-r", "x", "--inspect=0.0.0.0:4102", "app.js"]) == ("127.0.0.1", 4102)
    assert inspector_address(["node", "--inspect=4103", "app.js"], "--inspect-port=4200") == ("127.0.0.1", 4103)
    assert inspector_address(["node", "app.js"], "--inspect-port=4104") == ("127.0.0.1", 4104)


async def test_attach_by_pid_opens_the_inspector_stops_steps_evaluates_and_detaches() -> None:
    port = free_port()
    with running(["node", f"--inspect-port={port}", str(TICKER)]) as proc:
        assert port not in listening(proc.pid)  # --inspect-port alone opens nothing: the attach does
        async with stdio_tools() as tools:
            stop = await tools.ok("debug", mode="attach", processId=proc.pid,
                                  breakpoints=[{"file": str(TICKER), "line": TICK}], timeout=30)
            assert port in listening(proc.pid)
            assert stop["state"] == "paused" and stop["reason"] == "breakpoint", stop
            assert stop["location"]["line"] == TICK and stop["location"]["function"] == "tick", stop
            n = int(locals_of(stop)["n"])
            assert (await tools.ok("evaluate", expression="n * 10"))["value"] == str(n * 10)
            stepped = await tools.ok("step", mode="over")
            assert stepped["location"]["line"] == TICK + 1 and locals_of(stepped)["next"] == str(n + 1)
            session = await tools.read_json("debugger://session")
            assert session["launchMode"] == "Attach" and session["processId"] == proc.pid, session
            await tools.ok("clear-breakpoints", all=True)
            ran = await tools.ok("continue", timeout=2)  # console.log's lines reach the output: "tick 20" each second
            assert ran["state"] == "running" and "tick " in ran["output"]["text"], ran
            stopped = await tools.ok("stop")
            assert stopped["state"] == "terminated" and stopped["description"].startswith("detached"), stopped
            assert below_the_server() == [], below_the_server()
        assert proc.poll() is None, "detaching must leave the program running"


async def test_attach_refuses_an_inspector_port_another_process_holds() -> None:
    port = free_port()
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", port))
        holder.listen()
        with running(["node", f"--inspect-port={port}", str(TICKER)]) as proc:
            async with stdio_tools() as tools:
                message = await tools.error("debug", "INVALID_ARGUMENT", mode="attach", processId=proc.pid)
                assert f"port {port}" in message and "--inspect-port" in message and "9229" in message, message
            assert proc.poll() is None and port not in listening(proc.pid)


async def test_connect_to_an_inspector_with_a_path_mapping(tmp_path: Path) -> None:
    remote = tmp_path / "app"  # where the program runs, as a container names it; the agent's copy is tests/programs
    remote.mkdir()
    shutil.copy(TICKER, remote / "ticker.js")
    port = free_port()
    # --inspect-brk: it waits for a debugger before its first line, having said where on stderr (here stdout)
    argv = ["sh", "-c", 'exec node --inspect-brk=127.0.0.1:"$0" "$1" 2>&1', str(port), str(remote / "ticker.js")]
    with running(argv) as proc:
        async with stdio_tools() as tools:
            two = [{"local": str(PROGRAMS), "remote": str(remote)}, {"local": str(tmp_path), "remote": "/x"}]
            message = await tools.error("debug", "NOT_SUPPORTED", mode="connect", address=f"127.0.0.1:{port}",
                                        adapter="node", pathMappings=two)
            assert "one" in message, message
            stop = await tools.ok("debug", mode="connect", address=f"127.0.0.1:{port}", adapter="node",
                                  pathMappings=[{"local": str(PROGRAMS), "remote": str(remote)}],
                                  breakpoints=[{"file": str(TICKER), "line": TICK}], timeout=30)
            assert stop["state"] == "paused" and stop["location"]["line"] == TICK, stop
            assert stop["location"]["file"] == "tests/programs/ticker.js", stop  # the local copy, relative to cwd
            assert locals_of(stop)["n"] == "0"  # run on from --inspect-brk to the first tick
            stopped = await tools.ok("stop")
            assert stopped["description"].startswith("detached"), stopped
        assert proc.poll() is None, "detaching must leave the program running"


async def test_an_attach_with_no_breakpoint_answers_for_the_programs_session_which_pauses() -> None:
    """An attach with nothing to stop at answered for js-debug's launcher session, which `pause {}` could not pause
    ("no threads"): the program's own session answers, is current, and pauses in the program (issue 35 point 6)."""
    port = free_port()
    with running(["node", f"--inspect-port={port}", str(TICKER)]) as proc:
        async with stdio_tools() as tools:
            attached = await tools.ok("debug", mode="attach", processId=proc.pid, timeout=30)
            assert attached["state"] == "running" and attached.get("parentId") == "s1", attached
            assert attached["hint"].startswith("attached"), attached
            paused = await tools.ok("pause")
            assert paused["sessionId"] == attached["sessionId"] and paused["location"]["file"].endswith("ticker.js")
            assert (await tools.ok("stop"))["description"].startswith("detached")
        assert proc.poll() is None, "detaching must leave the program running"
