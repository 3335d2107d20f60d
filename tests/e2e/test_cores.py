"""Mode `core`: a core file read with the same tools as a stop, under lldb, gdb and Delve, and `save-core` (gdb's
gcore) of a paused program. The cores are made by gcore of programs the tests start (a crash run under gdb to its
signal, a Go program asleep), never through the kernel's core_pattern or `ulimit -c`."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import PROGRAMS, locals_of, marker, stdio_tools

CORES = PROGRAMS / "cores"
CRASH, ACCOUNT, HOLD = CORES / "crash.c", CORES / "account.c", CORES / "hold_go"


def build_c(source: Path, into: Path) -> Path:
    executable = into / source.stem
    subprocess.run(["cc", "-g", "-O0", "-o", str(executable), str(source)], check=True, timeout=60)
    return executable


def crash_core(executable: Path) -> Path:
    """The program run under gdb to its SIGSEGV, and a core written there."""
    core = executable.with_suffix(".core")
    subprocess.run(["gdb", "-q", "-batch", "-ex", "run", "-ex", f"gcore {core}", str(executable)],
                   capture_output=True, timeout=60, check=True)
    assert core.is_file() and core.stat().st_size > 0
    return core


@pytest.fixture(scope="module")
def crashed(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("crash")
    executable = build_c(CRASH, folder)
    return executable, crash_core(executable)


MOVES = [("continue", {}), ("step", {"mode": "over"}), ("pause", {}), ("restart", {}),
         ("set-variable", {"name": "by", "value": "3"}), ("breakpoint", {"file": str(CRASH), "line": 10})]


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_a_crash_core_reads_as_its_stop_and_every_move_is_refused(crashed, adapter):
    executable, core = crashed
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="core", path=str(executable), core=str(core), adapter=adapter)
        assert ctx["state"] == "paused" and ctx["reason"] == "core", ctx
        assert "SIGSEGV" in ctx["description"], ctx
        assert ctx["location"]["function"] == "scale" and ctx["location"]["line"] == marker(CRASH, "crash"), ctx
        assert [f["function"] for f in ctx["frames"]][:2] == ["scale", "main"], ctx
        local = locals_of(ctx)
        assert local["by"] == "2" and "6" in local["p"] and "4" in local["p"], local  # x was scaled before the crash
        assert (await tools.ok("evaluate", expression="p->x * 10"))["value"] == "60"
        called = await tools.error("evaluate", "ADAPTER_ERROR", expression="scale(p, 2)")
        assert "core file" in called and "calls a function" in called, called
        read = await tools.ok("memory", expression="*p", count=8)
        assert read["rows"][0]["hex"] == "06 00 00 00 04 00 00 00", read
        assert (await tools.ok("disassemble", instructionCount=4))["instructions"]
        threads = await tools.ok("info", type="threads")
        assert len(threads["items"]) == 1 and threads["items"][0]["frames"][0]["function"] == "scale", threads
        caller = await tools.ok("context", frameId=ctx["frames"][1]["id"])
        assert caller["location"]["function"] == "main", caller
        session = await tools.read_json("debugger://session")
        assert session["state"] == "Paused" and session["pauseReason"] == "Core", session
        assert session["currentLocation"]["functionName"] == "scale", session
        listed = (await tools.read_json("debugger://threads"))["threads"]
        assert [t["location"]["line"] for t in listed] == [marker(CRASH, "crash")], listed
        snap = (await tools.ok("snapshot_create", label="core"))["snapshot"]
        assert snap["functionName"] == "scale" and snap["variableCount"] == 3, snap
        exported = json.loads((await tools.ok("snapshot_export", snapshot_id=snap["id"]))["data"])
        assert exported["snapshot"]["functionName"] == "scale", exported["snapshot"]
        assert {child["name"] for child in exported["root"]["children"]} == {"p", "by", "missing"}, exported["root"]
        for tool, arguments in MOVES:
            refused = await tools.error(tool, "NOT_SUPPORTED", **arguments)
            assert "core file" in refused, (tool, refused)
        stopped = await tools.ok("stop")
        assert stopped["description"] == f"closed the core file {core}", stopped


async def test_save_core_writes_a_core_of_the_paused_program_under_gdb_that_reads_back(tmp_path):
    executable = build_c(ACCOUNT, tmp_path)
    saved = tmp_path / "account.core"
    async with stdio_tools() as tools:
        line = marker(ACCOUNT, "debited")
        await tools.ok("debug", mode="binary", path=str(executable), adapter="gdb",
                       breakpoints=[{"file": str(ACCOUNT), "line": line}])
        written = await tools.ok("save-core", path=str(saved))
        assert written["path"] == str(saved) and written["bytes"] == saved.stat().st_size > 0, written
        live = (await tools.ok("snapshot_create", label="live"))["snapshot"]["id"]
        baseline = tmp_path / "live.json"
        await tools.ok("snapshot_export", snapshot_id=live, path=str(baseline))
        ended = await tools.ok("continue")
        assert ended["exitCode"] == 0 and "balance 900" in ended["output"]["text"], ended  # the program went on

        await tools.ok("debug", mode="core", path=str(executable), core=str(saved), adapter="gdb")
        from_core = (await tools.ok("snapshot_create", label="core"))["snapshot"]["id"]
        imported = (await tools.ok("snapshot_import", path=str(baseline)))["snapshot"]["id"]
        same = (await tools.ok("snapshot_diff", snapshot_id_1=imported, snapshot_id_2=from_core))["diff"]
        assert same["summary"]["modified"] == same["summary"]["added"] == same["summary"]["removed"] == 0, \
            json.dumps(same)  # the core holds the state the live program had

        ctx = await tools.ok("debug", mode="core", path=str(executable), core=str(saved))  # lldb reads gdb's core
        assert ctx["reason"] == "core" and ctx["location"]["line"] == line, ctx
        assert (await tools.ok("evaluate", expression="acct.balance"))["value"] == "900"
        refused = await tools.error("save-core", "NOT_SUPPORTED")
        assert "core file already" in refused, refused

        await tools.ok("debug", mode="binary", path=str(executable), breakpoints=[{"file": str(ACCOUNT), "line": line}])
        refused = await tools.error("save-core", "NOT_SUPPORTED")  # lldb
        assert "minidumps" in refused and "gdb" in refused, refused


async def test_a_core_that_does_not_fit_is_refused_saying_why(crashed, tmp_path):
    executable, core = crashed
    other = build_c(ACCOUNT, tmp_path)
    cut = tmp_path / "cut.core"
    cut.write_bytes(core.read_bytes()[:100_000])
    stripped = tmp_path / "stripped"
    subprocess.run(["strip", "-o", str(stripped), str(executable)], check=True, timeout=30)
    async with stdio_tools() as tools:
        said = await tools.error("debug", "INVALID_ARGUMENT", mode="core", path=str(other), core=str(core))
        assert "another program or build" in said and str(executable) in said, said
        said = await tools.error("debug", "INVALID_ARGUMENT", mode="core", path=str(executable), core=str(cut))
        assert "cut short" in said, said
        said = await tools.error("debug", "INVALID_ARGUMENT", mode="core", path=str(executable), core=str(other))
        assert "no core file" in said, said
        await tools.error("debug", "FILE_NOT_FOUND", mode="core", path=str(executable), core=str(tmp_path / "x.core"))
        await tools.error("debug", "INVALID_ARGUMENT", mode="core", path=str(executable))  # no core
        await tools.error("debug", "INVALID_ARGUMENT", mode="binary", path=str(executable), core=str(core))
        await tools.error("debug", "NOT_SUPPORTED", mode="core", path=str(executable), core=str(core),
                          breakpoints=[{"file": str(CRASH), "line": 10}])
        said = await tools.error("debug", "NOT_SUPPORTED", mode="core", path=str(executable), core=str(core),
                                 adapter="debugpy")
        assert "reads no core files" in said and "lldb" in said, said

        ctx = await tools.ok("debug", mode="core", path=str(stripped), core=str(core))  # same build, no symbols
        assert ctx["reason"] == "core" and "no symbols (stripped)" in ctx["hint"], ctx
        assert ctx["frames"][0].get("instructionPointer"), ctx


async def test_a_core_of_a_sleeping_go_program_reads_under_delve(tmp_path):
    executable = tmp_path / "hold"
    subprocess.run(["go", "build", "-gcflags=all=-N -l", "-o", str(executable), "."], cwd=HOLD, check=True,
                   timeout=180, capture_output=True)
    program = await asyncio.create_subprocess_exec(str(executable), stdout=subprocess.PIPE)
    try:
        assert program.stdout is not None
        assert (await asyncio.wait_for(program.stdout.readline(), 30)).startswith(b"holding")
        core = tmp_path / "hold.core"
        subprocess.run(["gdb", "-q", "-batch", "-p", str(program.pid), "-ex", f"gcore {core}"], capture_output=True,
                       timeout=120, check=True)
    finally:
        program.kill()
        await program.wait()
    if shutil.which("fallocate"):  # Go reserves 1.2 GB of address space, which gcore writes out as zeros
        subprocess.run(["fallocate", "--dig-holes", str(core)], timeout=60)
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="core", path=str(executable), core=str(core), timeout=60)
        assert ctx["reason"] == "core" and ctx["sessionId"] == "s1", ctx
        functions = [f["function"] for f in ctx["frames"]]
        assert "main.hold" in functions and "main.main" in functions, functions
        assert ctx["location"]["function"] == "main.hold" and ctx["location"]["line"] == marker(HOLD / "main.go", "hold"), ctx
        assert (await tools.ok("evaluate", expression="o.total * 2"))["value"] == "14"
        assert (await tools.ok("evaluate", expression="o.items[1]"))["value"] == '"cake"'
        assert "core file" in await tools.error("continue", "NOT_SUPPORTED")
        await tools.ok("stop")
