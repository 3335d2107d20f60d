"""A program that runs elsewhere (a container, another machine), where its files have other paths than
the agent's copy: `debug`'s `pathMappings` lets the agent give breakpoints and read locations by its own
paths. The "elsewhere" is a temporary directory the program is copied to and run from; the agent's copy
lies in another one, and nothing in the program's own run names the agent's paths."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError

from conftest import PROGRAMS, connect_when_listening, free_port, locals_of, marker, running, stdio_tools

REPORT = PROGRAMS / "report_json.py"
TICKER_C = PROGRAMS / "ticker.c"
TICKER_GO = PROGRAMS / "ticker_go"


def two_copies(tmp_path: Path, *sources: Path) -> tuple[Path, Path]:
    """The agent's copy (`local`) and the directory the program runs from (`remote`), with the same files."""
    local, remote = tmp_path / "checkout", tmp_path / "container" / "app"
    for folder in (local, remote):
        folder.mkdir(parents=True)
        for source in sources:
            shutil.copy(source, folder / source.name)
    return local, remote


async def test_python_under_debugpy_listen_elsewhere_is_debugged_by_local_paths(tmp_path: Path) -> None:
    local, remote = two_copies(tmp_path, REPORT)
    mine, theirs = local / REPORT.name, remote / REPORT.name
    # the agent's copy of a library the program uses, mapped onto the directory the program imports it from
    stdlib_json = Path(json.__file__).parent
    shutil.copytree(stdlib_json, local / "lib" / "json")
    encoder = local / "lib" / "json" / "encoder.py"
    loop, line_total = marker(REPORT, "loop"), marker(REPORT, "line_total")
    port = free_port()
    listener = subprocess.Popen([sys.executable, "-m", "debugpy", "--listen", f"127.0.0.1:{port}", "--wait-for-client",
                                 REPORT.name], cwd=remote, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        async with stdio_tools() as tools:
            ctx = await connect_when_listening(tools, f"127.0.0.1:{port}", cwd=str(local),
                                               pathMappings=[{"local": ".", "remote": str(remote)},
                                                             {"local": "lib/json", "remote": str(stdlib_json)}],
                                               breakpoints=[{"file": REPORT.name, "line": loop}])
            # the breakpoint, given by the agent's path, stopped the program running from the other one
            assert ctx["state"] == "paused" and ctx["location"]["line"] == loop, ctx
            assert ctx["location"]["file"] == REPORT.name and ctx["pathsRelativeTo"] == str(local)
            assert all(frame["file"] == REPORT.name for frame in ctx["frames"]), ctx["frames"]
            assert locals_of(ctx)["name"] == "'apples'"
            views = (await tools.read_json("debugger://breakpoints"))["breakpoints"]
            assert [(bp["file"], bp["verified"]) for bp in views] == [(str(mine), True)], views

            ctx = await tools.ok("step", mode="in")
            assert (ctx["location"]["file"], ctx["location"]["line"]) == (REPORT.name, line_total), ctx
            ctx = await tools.ok("step", mode="out")
            assert ctx["location"]["file"] == REPORT.name and ctx["location"]["line"] == loop, ctx

            # the source resource serves the agent's file, which the adapter named; the program's own path
            # was never named to the agent, so it is not served
            served = await tools.client.read_resource(f"debugger://source/{mine}")
            assert served.contents[0].text == mine.read_text()
            with pytest.raises(MCPError, match="not referenced"):
                await tools.client.read_resource(f"debugger://source/{theirs}")

            # a breakpoint in the agent's copy of library code stops there (debugpy counts library code as the
            # program's own only by the path the program names it by, which it does not map itself)
            await tools.ok("clear-breakpoints", all=True)
            await tools.ok("breakpoint", file="lib/json/encoder.py", line=first_statement(encoder, "JSONEncoder", "encode"))
            ctx = await tools.ok("continue")
            assert ctx["location"]["file"] == "lib/json/encoder.py" and ctx["location"]["function"] == "encode", ctx
            assert [frame["file"] for frame in ctx["frames"]][-2:] == [REPORT.name, REPORT.name], ctx["frames"]
            ctx = await tools.ok("step", mode="out")  # past json.dumps, library code nobody put a breakpoint in
            assert (ctx["location"]["file"], ctx["location"]["line"]) == (REPORT.name, marker(REPORT, "dumps")), ctx
            await tools.ok("clear-breakpoints", all=True)
            await tools.ok("stop")
    finally:
        listener.kill()
        listener.wait()


def first_statement(path: Path, cls: str, method: str) -> int:
    """The line of the first statement after the docstring of `cls.method` in `path` (a library's file)."""
    [found] = [node for klass in ast.parse(path.read_text()).body if isinstance(klass, ast.ClassDef) and klass.name == cls
               for node in klass.body if isinstance(node, ast.FunctionDef) and node.name == method]
    return found.body[1].lineno


async def attached_by_local_path(proc: subprocess.Popen[bytes], local: Path, remote: Path, source: Path,
                                 function: str, caller: str) -> None:
    """Attach to `proc`, built from `remote`, with a breakpoint on the agent's copy of `source` in `local`."""
    mine, line = local / source.name, marker(source, "tick")
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="attach", processId=proc.pid,
                             pathMappings=[{"local": str(local), "remote": str(remote)}],
                             breakpoints=[{"file": str(mine), "line": line}])
        assert ctx["state"] == "paused" and ctx["location"]["function"] == function, ctx
        assert (ctx["location"]["file"], ctx["location"]["line"]) == (str(mine), line), ctx
        served = await tools.client.read_resource(f"debugger://source/{mine}")
        assert served.contents[0].text == mine.read_text()
        before = int(locals_of(ctx)["n"])
        ctx = await tools.ok("continue")
        assert ctx["location"]["file"] == str(mine) and int(locals_of(ctx)["n"]) == before + 1, ctx
        ctx = await tools.ok("step", mode="out")
        assert ctx["location"]["file"] == str(mine) and ctx["location"]["function"] == caller, ctx
        await tools.ok("stop")
    assert proc.poll() is None, "detaching must leave the process running"


async def test_go_process_built_elsewhere_is_attached_by_local_paths(tmp_path: Path) -> None:
    """Delve's `substitutePath`: the executable's DWARF names the directory it was built in."""
    local, remote = two_copies(tmp_path, *TICKER_GO.iterdir())
    subprocess.run(["go", "build", "-gcflags=all=-N -l", "-o", "ticker", "."], cwd=remote, check=True)
    with running([str(remote / "ticker")], cwd=remote) as proc:
        await attached_by_local_path(proc, local, remote, TICKER_GO / "main.go", "main.tick", "main.main")


async def test_c_process_built_elsewhere_is_attached_by_local_paths(tmp_path: Path) -> None:
    """lldb-dap's `sourceMap`: the executable's debug information names the directory it was built in."""
    local, remote = two_copies(tmp_path, TICKER_C)
    subprocess.run(["cc", "-g", "-O0", "-o", "ticker", TICKER_C.name], cwd=remote, check=True)
    with running([str(remote / "ticker")], cwd=remote) as proc:
        await attached_by_local_path(proc, local, remote, TICKER_C, "tick", "main")


async def test_bad_path_mappings_are_refused_and_the_session_goes_on(tmp_path: Path) -> None:
    local, remote = two_copies(tmp_path, TICKER_C)
    subprocess.run(["cc", "-g", "-O0", "-o", "ticker", TICKER_C.name], cwd=remote, check=True)
    ok = [{"local": str(local), "remote": str(remote)}]
    with running([str(remote / "ticker")], cwd=remote) as proc:
        async with stdio_tools() as tools:
            line = marker(TICKER_C, "tick")
            ctx = await tools.ok("debug", mode="attach", processId=proc.pid, pathMappings=ok,
                                 breakpoints=[{"file": str(local / TICKER_C.name), "line": line}])
            assert ctx["location"]["line"] == line, ctx

            async def refused(code: str, **arguments) -> str:
                return await tools.error("debug", code, **{"mode": "attach", "processId": proc.pid, **arguments})

            message = await refused("NOT_SUPPORTED", adapter="gdb", pathMappings=ok)
            assert "cdt-gdb-adapter" in message and "lldb" in message
            for blank in ({"local": "", "remote": str(remote)}, {"local": str(local), "remote": "  "}):
                assert "pathMappings" in await refused("INVALID_ARGUMENT", pathMappings=[blank])
            assert "remote" in await refused("INVALID_ARGUMENT", pathMappings=[{"local": str(local)}])
            assert "pathMappings" in await refused("INVALID_ARGUMENT", pathMappings=ok * 33)
            message = await refused("INVALID_ARGUMENT", pathMappings=[{"local": "no/such/dir", "remote": str(remote)}])
            assert "no/such/dir" in message and "does not exist" in message
            message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(local / TICKER_C.name),
                                        pathMappings=ok)
            assert "mode 'source'" in message

            # none of those gave up the session: it is still paused where it was
            ctx = await tools.ok("continue")
            assert ctx["location"]["file"] == str(local / TICKER_C.name) and ctx["location"]["line"] == line, ctx
            await tools.ok("stop")


async def test_restart_takes_new_path_mappings(tmp_path: Path) -> None:
    """`restart {pathMappings}` replaces the session's mappings, as its schema says ("As `debug`'s"): the argument
    was taken and dropped without a word, and the program restarted with the old ones (here none), naming its
    sources by the paths of the machine it was built on."""
    local, remote = two_copies(tmp_path, TICKER_C)
    subprocess.run(["cc", "-g", "-O0", "-o", "ticker", TICKER_C.name], cwd=remote, check=True)
    line = marker(TICKER_C, "tick")
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="binary", path=str(remote / "ticker"), adapter="lldb",
                             breakpoints=[{"file": str(remote / TICKER_C.name), "line": line}])
        assert (ctx["location"]["file"], ctx["location"]["line"]) == (str(remote / TICKER_C.name), line), ctx
        ctx = await tools.ok("restart", pathMappings=[{"local": str(local), "remote": str(remote)}])
        assert (ctx["location"]["file"], ctx["location"]["line"]) == (str(local / TICKER_C.name), line), ctx
        await tools.ok("stop")


async def test_an_executable_built_elsewhere_is_launched_by_local_paths(tmp_path: Path) -> None:
    """Mode `binary` takes mappings too: an executable from a build machine or a container's build names
    the sources by the paths they had there. `restart` keeps them."""
    local, remote = two_copies(tmp_path, TICKER_C)
    subprocess.run(["cc", "-g", "-O0", "-o", "ticker", TICKER_C.name], cwd=remote, check=True)
    mine, line = local / TICKER_C.name, marker(TICKER_C, "tick")
    async with stdio_tools() as tools:
        for start in ("debug", "restart"):
            if start == "debug":
                ctx = await tools.ok("debug", mode="binary", path=str(remote / "ticker"), adapter="lldb",
                                     pathMappings=[{"local": str(local), "remote": str(remote)}],
                                     breakpoints=[{"file": str(mine), "line": line}])
            else:
                ctx = await tools.ok("restart")
            assert (ctx["location"]["file"], ctx["location"]["line"]) == (str(mine), line), (start, ctx)
            assert locals_of(ctx)["n"] == "0"
        await tools.ok("stop")
