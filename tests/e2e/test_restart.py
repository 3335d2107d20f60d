"""`restart` after the agent edited the program, the most common move after finding a bug: what cannot start
is refused before the running program is ended, and a start that fails keeps what the agent built up."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import INVOICE, PROGRAMS, ROOT, marker, server_processes, stdio_tools


async def test_a_restart_whose_build_fails_keeps_the_running_program_its_breakpoints_and_snapshots(
        tmp_path: Path) -> None:
    """A Go program is built before the running one is ended (as a C, C++ or Rust one is): one typo used to lose
    the session, its breakpoints and the snapshot kept to compare the fix with, when Delve built it in `launch`."""
    folder = tmp_path / "calls"
    shutil.copytree(PROGRAMS / "calls_go", folder)
    source = folder / "main.go"
    good = source.read_text()
    line = marker(source, "leaf")
    async with stdio_tools() as tools:
        first = await tools.ok("debug", mode="source", path=str(source), timeout=120,
                               breakpoints=[{"file": str(source), "line": line}])
        assert first["state"] == "paused" and first["breakpointIds"] == [1], first
        kept = (await tools.ok("snapshot_create", label="before-fix"))["snapshot"]["id"]
        source.write_text(good + "\n}\n")
        message = await tools.error("restart", "BUILD_FAILED", timeout=120)
        assert message.startswith("go build failed (exit 1):") and "main.go:" in message, message
        assert "syntax error" in message and "Build error" not in message, message  # go's words, not Delve's
        still = await tools.ok("context")
        assert still["state"] == "paused" and still["location"]["line"] == line, still
        assert [s["label"] for s in (await tools.ok("snapshot_list"))["snapshots"]] == ["before-fix"]
        source.write_text(good)
        again = await tools.ok("restart", timeout=120)
        assert again["state"] == "paused" and again["breakpointIds"] == [1], again
        assert (await tools.ok("snapshot_diff", snapshot_id_1=kept, snapshot_id_2="@t0"))["success"]
        await tools.ok("stop")


async def test_a_restart_that_could_not_start_is_refused_before_the_program_is_ended(tmp_path: Path) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    async with stdio_tools() as tools:
        paused = await tools.ok("debug", mode="source", path=str(INVOICE), cwd=str(folder),
                                breakpoints=[{"file": str(INVOICE), "line": marker(INVOICE, "loop")}])
        message = await tools.error("restart", "INVALID_ARGUMENT", args=["a\x00b"])
        assert "NUL" in message, message
        folder.rmdir()
        message = await tools.error("restart", "INVALID_ARGUMENT")
        assert str(folder) in message and "not a directory" in message, message
        still = await tools.ok("context")
        assert still["state"] == "paused" and still["location"] == paused["location"], still
        await tools.ok("stop")


async def test_a_restart_overtaken_by_stop_starts_nothing(tmp_path: Path) -> None:
    """A long build (Rust, Go, a big C file) can outlast a client's patience; the `stop` the agent sends
    meanwhile wins, and the restart does not bring the old program back once its build is done."""
    source = tmp_path / "slow.c"
    functions = "".join(f"int f{i}(int x) {{ int y = x * {i}; for (int k = 0; k < 3; k++) y += k ^ x; return y; }}\n"
                        for i in range(4000))
    source.write_text(f"#include <stdio.h>\n{functions}int main(void) {{\n    int r = f7(3);\n"
                      "    printf(\"%d\\n\", r);\n    return 0;\n}\n")
    line = source.read_text().splitlines().index("    int r = f7(3);") + 1
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(source), adapter="lldb", timeout=120,
                       breakpoints=[{"file": str(source), "line": line}])
        restarting = asyncio.create_task(tools("restart", timeout=120))
        await asyncio.sleep(0.3)
        assert (await tools.ok("stop"))["state"] == "terminated"
        answer = await asyncio.wait_for(restarting, 120)  # a hang guard: the stop ends the restart within a second
        assert not answer["success"] and answer["error"]["code"] == "TERMINATED", answer
        assert "`stop`" in answer["error"]["message"] and "nothing was started" in answer["error"]["message"]
        await tools.error("context", "NO_SESSION")
        servers = server_processes()
        assert servers and not [p for s in servers for p in s.children(recursive=True) if "slow" in " ".join(p.cmdline())]


@pytest.mark.parametrize("adapter", ["debugpy", "lldb"])
async def test_breakpoints_stay_on_their_code_through_an_edit(adapter: str, tmp_path: Path) -> None:
    example = INVOICE if adapter == "debugpy" else ROOT / "examples" / "c" / "invoice.c"
    source = tmp_path / example.name
    shutil.copy(example, source)
    line, end = marker(source, "loop"), marker(source, "print")
    options = {} if adapter == "debugpy" else {"adapter": adapter}
    comment = "#" if adapter == "debugpy" else "//"
    async with stdio_tools() as tools:
        first = await tools.ok("debug", mode="source", path=str(source), timeout=60, **options,
                               breakpoints=[{"file": str(source), "line": line}, {"file": str(source), "line": end}])
        assert first["location"]["line"] == line and first["breakpointIds"] == [1], first
        lines = source.read_text().splitlines()
        lines[end - 1] = lines[end - 1].replace("invoice total", "total due")
        source.write_text("\n".join([f"{comment} fixed: one", f"{comment} fixed: two", *lines]) + "\n")
        again = await tools.ok("restart", timeout=60)
        assert again["location"]["line"] == line + 2 and again["breakpointIds"] == [1], again
        moved, gone = again["breakpointNotes"]
        assert moved.startswith(f"breakpoint 1 ({source.name}:{line + 2}): {source.name} changed since it was set: "
                                f"moved from line {line} to line {line + 2} with its code, `"), moved
        assert gone.startswith(f"breakpoint 2 ({source.name}:{end + 2}): ") and "was edited and now reads `" in gone \
            and "total due" in gone, gone
        assert (await tools.ok("continue"))["location"]["line"] == line + 2  # the next turn of the loop
        await tools.ok("stop")


async def test_an_evaluation_cut_short_by_restart_says_so() -> None:
    """debugpy answers the pending `evaluate` with "No more messages", which read as the expression's failure."""
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(INVOICE),
                       breakpoints=[{"file": str(INVOICE), "line": marker(INVOICE, "loop")}])
        waiting = asyncio.create_task(tools("evaluate", expression="__import__('time').sleep(30)"))
        await asyncio.sleep(1)
        assert (await tools.ok("restart"))["state"] == "paused"
        answer = await asyncio.wait_for(waiting, 25)  # a hang guard below the sleep's 30 s: answered with the restart
        assert not answer["success"] and answer["error"]["code"] == "TERMINATED", answer
        assert "`restart`" in answer["error"]["message"] and "'evaluate'" in answer["error"]["message"], answer
        assert (await tools.ok("evaluate", expression="discount_percent"))["value"] == "10"
        await tools.ok("stop")


async def test_breakpoints_do_not_follow_an_edit_the_restart_does_not_run(tmp_path: Path) -> None:
    """A `binary` restart runs the executable built before the edit: its lines are the old ones."""
    source = tmp_path / "calls.c"
    shutil.copy(PROGRAMS / "calls.c", source)
    exe = tmp_path / "calls"
    subprocess.run(["cc", "-g", "-O0", "-o", str(exe), str(source)], check=True)
    line = marker(source, "leaf")
    async with stdio_tools() as tools:
        first = await tools.ok("debug", mode="binary", path=str(exe), adapter="lldb",
                               breakpoints=[{"file": str(source), "line": line}])
        assert first["location"]["line"] == line, first
        source.write_text("/* edited, not rebuilt */\n" + source.read_text())
        again = await tools.ok("restart")
        assert again["location"]["line"] == line and again["breakpointIds"] == [1], again
        assert "breakpointNotes" not in again, again
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_a_restart_the_adapter_refuses_to_launch_says_the_adapters_reason_and_keeps_the_session(
        adapter: str, tmp_path: Path) -> None:
    """The executable replaced by one the debugger cannot load (a build gone wrong): the adapter refuses the
    launch, after the old program has been ended. The agent gets the adapter's reason with what to do next,
    and a `restart` once the executable is good again runs with the same breakpoints."""
    source = ROOT / "examples" / "c" / "invoice.c"
    program = tmp_path / "invoice"
    subprocess.run(["cc", "-g", "-O0", "-o", str(program), str(source)], check=True)
    good = program.read_bytes()
    async with stdio_tools() as tools:
        first = await tools.ok("debug", mode="binary", path=str(program), adapter=adapter, timeout=60,
                               breakpoints=[{"file": str(source), "line": marker(source, "loop")}])
        assert first["state"] == "paused" and first["breakpointIds"] == [1], first
        program.unlink()  # the running executable cannot be written over
        program.write_bytes(b"\x7fELF" + b"\0" * 60)
        program.chmod(0o755)
        message = await tools.error("restart", "ADAPTER_ERROR", timeout=60)
        assert str(program) in message and message.endswith("fix the cause and `restart` again"), message
        ended = await tools.ok("context")
        assert ended["state"] == "terminated" and "could not be started" in ended["description"], ended
        program.unlink()
        program.write_bytes(good)
        program.chmod(0o755)
        again = await tools.ok("restart", timeout=60)
        assert again["state"] == "paused" and again["breakpointIds"] == [1], again
        await tools.ok("stop")
