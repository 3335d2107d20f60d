"""js-debug's link to a Node program's inspector: the real js-debug, a real program, a plain DAP client (the
Node profile's session wiring does not exist yet). The link is the one js-debug's watchdog opens to the
program's inspector; the program writes to it with Nagle's algorithm on, which costs a step two or three
40 ms delayed ACKs (bench/node_step.py) until `unstall_inspectors` turns TCP_NODELAY on at the program's end."""

from __future__ import annotations

import asyncio
import ctypes
import os
import re
import socket
from pathlib import Path
from typing import Any

import psutil

from dap2mcp.adapters.node import JS_DEBUG, NODELAY_PRELOAD, unstall_inspectors
from dap2mcp.dap import DapClient, spawn_listening
from dap2mcp.session.program.link import CLIENT_CAPABILITIES

PROGRAM = Path(__file__).resolve().parents[1] / "programs" / "ledger.js"
LISTENING = re.compile(r"listening at (?P<host>[\d.]+):(?P<port>\d+)")


def nodelay_of(pid: int, fd: int) -> int:
    """TCP_NODELAY of a socket another process holds, read through a copy of its descriptor."""
    pidfd = os.pidfd_open(pid)
    try:
        copy = ctypes.CDLL(None, use_errno=True).syscall(438, pidfd, fd, 0)  # pidfd_getfd
    finally:
        os.close(pidfd)
    assert copy >= 0, os.strerror(ctypes.get_errno())
    with socket.socket(fileno=copy) as sock:
        return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def inspector_link(watchdog: psutil.Process) -> tuple[psutil.Process, int]:
    """The program and its descriptor of the TCP connection the watchdog holds to it."""
    (own,) = [c for c in watchdog.net_connections("tcp") if c.raddr]
    program = watchdog.parent()
    (end,) = [c for c in program.net_connections("tcp") if c.laddr == own.raddr and c.raddr == own.laddr]
    return program, end.fd


async def test_js_debug_and_the_programs_inspector_send_at_once():
    server = JS_DEBUG.require("node")
    transport = await spawn_listening(["node", "--require", str(NODELAY_PRELOAD), server, "0", "127.0.0.1"],
                                      LISTENING, on_output=lambda category, text: None)
    client = DapClient(transport)
    asked: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    async def start_debugging(arguments: dict[str, Any]) -> dict[str, Any]:
        if not asked.done():
            asked.set_result(arguments)
        return {}

    client.on_reverse_request("startDebugging", start_debugging)
    client.start()
    try:
        await client.request("initialize", {**CLIENT_CAPABILITIES, "adapterID": "pwa-node",
                                            "supportsStartDebuggingRequest": True}, timeout=30)
        launched = client.send("launch", {"type": "pwa-node", "request": "launch", "program": str(PROGRAM),
                                          "cwd": str(PROGRAM.parent), "outputCapture": "std"})
        await client.request("configurationDone", timeout=30)
        await client.wait("launch", launched, 30)
        await asyncio.wait_for(asked, 30)  # by now the watchdog holds its link to the program's inspector

        assert transport.process is not None
        ours = transport.writer.get_extra_info("sockname")[:2]
        (server_end,) = [c for c in psutil.Process(transport.process.pid).net_connections("tcp") if c.raddr == ours]
        assert nodelay_of(transport.process.pid, server_end.fd) != 0  # the preload's doing: js-debug sends at once

        (watchdog,) = [p for p in psutil.Process(transport.process.pid).children(recursive=True)
                       if os.path.join(os.path.dirname(os.path.realpath(server)), "watchdog.js") in p.cmdline()]
        program, fd = inspector_link(watchdog)
        assert nodelay_of(program.pid, fd) == 0  # as Node leaves it
        listener = next(c.fd for c in program.net_connections("tcp") if c.status == psutil.CONN_LISTEN)

        assert unstall_inspectors(transport.process.pid) == 1
        assert nodelay_of(program.pid, fd) != 0
        assert nodelay_of(program.pid, listener) == 0  # the program's other sockets are left as they were
        assert unstall_inspectors(transport.process.pid) == 1  # again, as each child session asks: harmless
    finally:
        await client.close()  # kills js-debug's tree: the program and its watchdog with it
