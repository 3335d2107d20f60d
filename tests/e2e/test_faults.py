"""Faults, produced for real: adapters killed or frozen, debuggees crashing or hanging, a client
gone mid-call. Each ends in a clear state or error code, a list_changed notification, a server
that debugs again, and no process or file descriptor left behind (read from /proc)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
import warnings
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import psutil
import pytest
from mcp import MCPDeprecationWarning
from mcp.types import ResourceListChangedNotification

from conftest import INVOICE, PROGRAMS, Tools, cmdline_of, connect, marker, server_processes

SPIN = PROGRAMS / "spin.py"
BUSY = PROGRAMS / "busy.py"


class Watch:
    """One server over stdio: its tools, list_changed arrivals, and what it holds open."""

    def __init__(self) -> None:
        self.list_changes = 0
        self.tools: Tools
        self.server: psutil.Process

    async def on_message(self, message: Any) -> None:
        if isinstance(message, ResourceListChangedNotification):
            self.list_changes += 1

    def descendants(self) -> list[psutil.Process]:
        alive = []
        for proc in self.server.children(recursive=True):
            try:
                if proc.status() != psutil.STATUS_ZOMBIE:
                    alive.append(proc)
            except psutil.Error:
                pass
        return alive

    def fds(self) -> int:
        return len(os.listdir(f"/proc/{self.server.pid}/fd"))

    async def list_changed_since(self, count: int, within: float = 30.0) -> bool:
        """Whether the resource list changed past `count` notices (a hang guard: the notice comes in 0.1 s)."""
        deadline = time.monotonic() + within
        while self.list_changes <= count and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return self.list_changes > count

    async def clean(self, fds: int, within: float = 30.0) -> None:
        """Nothing left running under the server, and no more descriptors open than before (a hang guard: all
        is closed within a second of what ended it)."""
        deadline = time.monotonic() + within
        while (self.descendants() or self.fds() > fds) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert self.descendants() == [], [cmdline_of(p) for p in self.descendants()]
        assert self.fds() <= fds, sorted(os.readlink(f"/proc/{self.server.pid}/fd/{fd}")
                                        for fd in os.listdir(f"/proc/{self.server.pid}/fd"))

    async def debugs_again(self) -> None:
        end = await self.tools.ok("debug", mode="source", path=str(INVOICE), args=["0"])
        assert end["state"] == "terminated" and end["exitCode"] == 0


@asynccontextmanager
async def watched() -> AsyncIterator[tuple[Watch, int]]:
    """A server warmed up by one whole session (lazy imports, caches), and its descriptor count then."""
    watch = Watch()
    async with connect("stdio", "legacy", message_handler=watch.on_message) as client:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await client.subscribe_resource("debugger://session")
        watch.tools = Tools(client)
        (watch.server,) = server_processes()
        await watch.debugs_again()
        await watch.tools.ok("stop")
        await watch.clean(10_000)
        yield watch, watch.fds()


def _adapter(watch: Watch, name: str) -> psutil.Process:
    return next(p for p in watch.descendants() if name in " ".join(cmdline_of(p)))


async def test_adapter_killed_while_a_continue_waits() -> None:
    async with watched() as (watch, fds):
        await watch.tools.ok("debug", mode="source", path=str(SPIN), stopOnEntry=True)
        before = watch.list_changes
        waiting = asyncio.ensure_future(watch.tools("continue", timeout=20))
        await asyncio.sleep(0.5)
        _adapter(watch, "debugpy.adapter").kill()
        result = await asyncio.wait_for(waiting, 15)  # a hang guard below the continue's 20 s: it ends in 0.1 s
        assert result["success"] and result["state"] == "terminated", result
        assert "adapter" in result.get("description", ""), result
        await watch.tools.error("step", "TERMINATED", mode="over")
        await watch.clean(fds)
        await watch.tools.ok("stop")
        assert await watch.list_changed_since(before)
        await watch.debugs_again()
        await watch.clean(fds)


async def test_adapter_frozen_with_sigstop_times_out_and_stop_still_ends_it() -> None:
    async with watched() as (watch, fds):
        await watch.tools.ok("debug", mode="source", path=str(SPIN), stopOnEntry=True)
        adapter = _adapter(watch, "debugpy.adapter")
        adapter.send_signal(signal.SIGSTOP)
        message = await watch.tools.error("step", "TIMEOUT", mode="over")
        assert message == "debug adapter did not answer 'next' within 10s"  # the request's own limit, not the call's
        await watch.tools.error("evaluate", "TIMEOUT", expression="1")  # still frozen, still an answer
        before = watch.list_changes
        stopped = await watch.tools.ok("stop")
        assert stopped["state"] == "terminated"
        assert await watch.list_changed_since(before)
        await watch.clean(fds)
        await watch.debugs_again()
        await watch.clean(fds)


@pytest.mark.parametrize(("program", "adapter", "code"), [
    pytest.param(PROGRAMS / "exits.py", None, 3, id="python-os-exit"),
    pytest.param(PROGRAMS / "segv.c", "gdb", 128 + signal.SIGSEGV, id="c-segfault-gdb"),
    pytest.param(PROGRAMS / "overflow.c", "gdb", 128 + signal.SIGSEGV, id="c-stack-overflow-gdb"),
    # lldb gives the signal's number as the exit status (11), which reads as exit(11)
    pytest.param(PROGRAMS / "segv.c", "lldb", 128 + signal.SIGSEGV, id="c-segfault-lldb"),
])
async def test_debuggee_dies(program, adapter: str | None, code: int) -> None:
    async with watched() as (watch, fds):
        before = watch.list_changes
        ctx = await watch.tools.ok("debug", mode="source", path=str(program), **({"adapter": adapter} if adapter else {}))
        while ctx["state"] == "paused":  # a crash stops once where it happens, then ends the program
            assert ctx["reason"] == "exception", ctx
            ctx = await watch.tools.ok("continue")
        assert ctx["state"] == "terminated" and ctx["exitCode"] == code, ctx
        if code > 128:
            assert ctx["description"] == f"the program was killed by signal SIGSEGV (exit code {code}, as a shell reports it)"
        assert await watch.list_changed_since(before)
        await watch.tools.ok("stop")
        await watch.clean(fds)
        await watch.debugs_again()


@pytest.mark.parametrize("program", [PROGRAMS / "overflow.c", PROGRAMS / "segv.c"], ids=["stack-overflow", "segfault"])
async def test_native_crash_under_lldb_stops_where_it_happens(program) -> None:
    async with watched() as (watch, fds):
        ctx = await watch.tools.ok("debug", mode="source", path=str(program))
        assert ctx["state"] == "paused" and ctx["reason"] == "exception" and "SIGSEGV" in ctx["description"], ctx
        function, line = ("depth", marker(program, "recurse")) if "overflow" in program.name else ("store", marker(program, "crash"))
        assert ctx["location"]["function"] == function and ctx["location"]["line"] <= line, ctx["location"]
        assert len(ctx["frames"]) > 1
        await watch.tools.ok("stop")
        await watch.clean(fds)


async def test_python_stack_overflow_stops_then_ends_the_program_with_its_traceback() -> None:
    """pydevd's own tracing overflows the stack first; the stop is made post mortem (test_library_code.py)."""
    async with watched() as (watch, fds):
        before = watch.list_changes
        ctx = await watch.tools.ok("debug", mode="source", path=str(PROGRAMS / "recursion.py"))
        assert ctx["state"] == "paused" and ctx["exception"]["typeName"] == "RecursionError", ctx
        end = await watch.tools.ok("continue")
        assert end["state"] == "terminated" and end["exitCode"] == 1, end
        assert "RecursionError: maximum recursion depth exceeded" in end["output"]["text"]
        assert len(end["output"]["text"]) < 20_000  # the traceback is cut short, not a thousand frames
        assert await watch.list_changed_since(before)
        await watch.tools.ok("stop")
        await watch.clean(fds)


async def test_hung_debuggee_times_out_then_pauses_where_it_spins() -> None:
    async with watched() as (watch, fds):
        running = await watch.tools.ok("debug", mode="source", path=str(BUSY), timeout=1)
        assert running["state"] == "running" and "timeout" in running["hint"]
        ctx = await watch.tools.ok("continue", timeout=0.5)
        assert ctx["state"] == "running"
        for _ in range(300):  # in its loop: on a busy machine a pause 1.5 s after the start landed in runpy's code
            if "spinning" in (await watch.tools.ok("output"))["text"]:
                break
            await asyncio.sleep(0.1)
        ctx = await watch.tools.ok("pause")
        assert ctx["state"] == "paused" and ctx["reason"] == "pause" and ctx["location"]["line"] == marker(BUSY, "spin")
        await watch.tools.ok("stop")
        await watch.clean(fds)


async def test_client_gone_mid_call_ends_everything() -> None:
    everything: list[int] = []
    async with connect("stdio", "legacy") as client:
        tools = Tools(client)
        await tools.ok("debug", mode="source", path=str(SPIN), stopOnEntry=True)
        (server,) = server_processes()
        everything = [server.pid] + [p.pid for p in server.children(recursive=True)]
        asyncio.ensure_future(tools("continue", timeout=30))  # left waiting when the client goes
        await asyncio.sleep(0.5)
    deadline = time.monotonic() + 30  # a hang guard: all ends within a second of the client's going
    while any(psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE for p in everything):
        assert time.monotonic() < deadline, "something outlived the client"
        await asyncio.sleep(0.1)


async def test_a_flood_of_output_and_a_huge_list_stay_bounded() -> None:
    """100 MB printed and a list of ten million numbers: the agent gets a bounded context and snapshot,
    and the server's memory grows by tens of MB, not by what the program holds."""
    program = PROGRAMS / "flood.py"
    async with watched() as (watch, fds):
        before = watch.server.memory_info().rss
        ctx = await watch.tools.ok("debug", mode="source", path=str(program), timeout=300,
                                   breakpoints=[{"file": str(program), "line": marker(program, "held")}])
        assert ctx["state"] == "paused" and ctx["output"]["truncated"] and len(ctx["output"]["text"]) <= 8000
        numbers = next(v for s in ctx["scopes"] for v in s["variables"] if v["name"] == "numbers")
        assert numbers["value"].startswith("[0, 1, 2") and len(numbers["value"]) <= 1100
        snapshot = (await watch.tools.ok("snapshot_create", depth=3))["snapshot"]
        assert snapshot["truncated"] and snapshot["variableCount"] <= 20_000
        deadline = time.monotonic() + 120  # debugpy still forwards output after the stop, for 2 to 10 s: a hang guard
        while (page := await watch.tools.ok("output", offset=0, limit=100))["end"] < 100_000_000:
            assert time.monotonic() < deadline, page
            await asyncio.sleep(0.2)
        assert page["dropped"] > 98_000_000  # counted, not kept
        grown = (watch.server.memory_info().rss - before) / 2**20
        assert grown < 100, f"server RSS grew by {grown:.0f} MB"
        await watch.tools.ok("stop")
        await watch.clean(fds)
