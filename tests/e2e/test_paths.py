"""How results name files: below the session's directory (`cwd`, else the server's), relative to
it, as an agent names the files of its project; elsewhere, absolutely. A name from a result works
as it is wherever a file is asked for."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from conftest import Tools, marker

APP = '''import sys
sys.path.insert(0, sys.argv[1])
from shared import double


def main():
    value = double(21)  # marker: call
    print("value", value)  # marker: print


main()
'''
SHARED = '''def double(n):
    result = n * 2  # marker: inside
    return result
'''


def _layout(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A project with its program in a subfolder, and a module it imports from outside the project."""
    project, outside = tmp_path / "project", tmp_path / "elsewhere"
    (project / "app").mkdir(parents=True)
    outside.mkdir()
    (project / "app" / "main.py").write_text(APP)
    (outside / "shared.py").write_text(SHARED)
    return project, project / "app" / "main.py", outside / "shared.py"


def _server(cwd: Path) -> Client:
    params = StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve"], cwd=str(cwd),
                                   env=dict(os.environ))
    return Client(params, mode="legacy")


async def test_files_below_the_servers_directory_are_named_relative_to_it(tmp_path: Path):
    project, program, shared = _layout(tmp_path)
    async with _server(project) as client:
        tools = Tools(client)
        started = await tools.ok("debug", mode="source", path="app/main.py", args=[str(shared.parent)],
                                 breakpoints=[{"file": str(shared), "line": marker(shared, "inside")}])
        assert started["pathsRelativeTo"] == str(project)
        assert started["location"]["file"] == str(shared)  # outside the project: absolute
        assert [f["file"] for f in started["frames"][:3]] == [str(shared), "app/main.py", "app/main.py"]

        # a name from a result is taken back as it is: breakpoints, continue's `to`, the source resource
        placed = await tools.ok("breakpoint", file="app/main.py", line=marker(program, "print"))
        assert placed["verified"] and placed["file"] == "app/main.py"
        ctx = await tools.ok("continue")
        assert (ctx["location"]["file"], ctx["location"]["line"]) == ("app/main.py", marker(program, "print"))
        assert ctx["breakpointIds"] == [placed["id"]]
        source = await client.read_resource("debugger://source/app/main.py")
        assert source.contents[0].text == APP
        assert (await tools.ok("clear-breakpoints", file="app/main.py"))["removed"] == [placed["id"]]
        modules = {m["name"]: m.get("path") for m in (await tools.ok("info", type="modules"))["items"]}
        assert (modules["__main__"], modules["shared"]) == ("app/main.py", str(shared))

        # the resources keep absolute paths, as the debug adapter gave them
        session = await tools.read_json("debugger://session")
        assert session["currentLocation"]["file"] == str(program)
        await tools.ok("stop")


async def test_a_debug_cwd_is_the_directory_files_are_named_from(tmp_path: Path):
    project, program, shared = _layout(tmp_path)
    async with _server(tmp_path / "elsewhere") as client:  # the server runs in another directory
        tools = Tools(client)
        started = await tools.ok("debug", mode="source", path="app/main.py", cwd=str(project),
                                 args=[str(shared.parent)],
                                 breakpoints=[{"file": "app/main.py", "line": marker(program, "call")}])
        assert started["pathsRelativeTo"] == str(project)
        assert started["location"]["file"] == "app/main.py"
        ctx = await tools.ok("continue", to={"file": str(shared), "line": marker(shared, "inside")})
        assert ctx["location"]["file"] == str(shared)  # the server's own directory is not the base
        await tools.ok("stop")


async def test_from_the_root_directory_every_name_stays_absolute(tmp_path: Path):
    _, program, shared = _layout(tmp_path)
    async with _server(Path("/")) as client:
        tools = Tools(client)
        started = await tools.ok("debug", mode="source", path=str(program), args=[str(shared.parent)],
                                 breakpoints=[{"file": str(program), "line": marker(program, "call")}])
        assert started["pathsRelativeTo"] == "/" and started["location"]["file"] == str(program)
        await tools.ok("stop")
