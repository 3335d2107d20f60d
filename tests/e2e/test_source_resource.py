"""The source template: files the debug adapter referenced are served, nothing else is."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import quote

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from conftest import PROGRAMS, Tools, connect, marker

MODES = ["legacy", "2026-07-28"]


def uri(path: str) -> str:
    return "debugger://source/" + path


async def refused(client: Client, path: str) -> str:
    with pytest.raises(MCPError) as caught:
        await client.read_resource(uri(path))
    error = caught.value.error
    if "no debug session" not in error.message:
        assert error.code == -1, error  # seed 004's code for a refused source file
        assert error.data["code"] in ("INVALID_ARGUMENT", "FILE_NOT_FOUND") and error.data["uri"] == uri(path)
    return error.message


@pytest.fixture
def app(tmp_path: Path) -> Path:
    """A program in a directory of its own, with files beside it that it never references."""
    folder = tmp_path / "app"
    folder.mkdir()
    shutil.copy(PROGRAMS / "counter.py", folder / "counter.py")
    (folder / "other.py").write_text("def other():\n    return 1\n")
    (folder / "unrelated.py").write_text("SECRET = 'not for the agent'\n")
    (folder / "sub").mkdir()
    (folder / "a%41.py").write_text("PERCENT = True\n")
    os.symlink("/etc/passwd", folder / "notes.py")
    os.symlink(folder / "counter.py", folder / "alias.py")
    return folder


@pytest.mark.parametrize("mode", MODES)
async def test_only_referenced_files_are_served(mode: str, app: Path):
    program = app / "counter.py"
    async with connect("stdio", mode) as client:
        tools = Tools(client)
        message = await refused(client, str(program))
        assert "no debug session" in message
        await tools.ok("debug", mode="source", path=str(program), args=["3"],
                       breakpoints=[{"file": str(program), "line": marker(program, "work")}])
        template, _ = (await client.list_resource_templates()).resource_templates  # then each session's documents
        assert template.uri_template == "debugger://source/{+file}" and template.mime_type == "text/plain"

        served = (await client.read_resource(uri(str(program)))).contents[0]
        assert served.text == program.read_text() and served.mime_type == "text/plain"
        # The same file by other spellings: `..` and `.` segments, percent-encoding, a symlink to it.
        for spelling in (f"{app}/sub/../counter.py", f"{app}/./counter.py", quote(str(program)), f"{app}/alias.py"):
            assert (await client.read_resource(uri(spelling))).contents[0].text == program.read_text(), spelling

        assert await refused(client, "/etc/passwd") == "File path '/etc/passwd' is not referenced by the debug adapter"
        for trick in (f"{app}/../../../../../etc/passwd", f"{app}/notes.py", f"{app}/unrelated.py",
                      f"{app}/COUNTER.PY", "etc/passwd", f"{app}/sub/..%2F..%2F..%2F..%2Fetc%2Fpasswd"):
            message = await refused(client, trick)
            assert "is not referenced by the debug adapter" in message, (trick, message)
            assert "root:" not in message and "SECRET" not in message

        for nul in (f"{program}%00", "%00", f"{app}/%00/../../../../etc/passwd"):
            assert "is not referenced by the debug adapter" in await refused(client, nul)

        # A breakpoint the adapter verified references its file, though no frame is in it yet...
        assert "not referenced" in await refused(client, str(app / "other.py"))
        assert (await tools.ok("breakpoint", file=str(app / "other.py"), line=2))["verified"] is True
        assert (await client.read_resource(uri(str(app / "other.py")))).contents[0].text.startswith("def other")
        literal = app / "a%41.py"  # `{+file}` passes `%41` through: the literal name is found as given
        assert (await tools.ok("breakpoint", file=str(literal), line=1))["verified"] is True
        assert (await client.read_resource(uri(str(literal)))).contents[0].text == "PERCENT = True\n"
        # ... but only in a source file of the program's language: a file that is not Python (no template engine
        # armed) takes no breakpoint, and is not served either
        assert "is not Python" in await tools.error("breakpoint", "NOT_SUPPORTED", file="/etc/passwd", line=1)
        assert "not referenced" in await refused(client, "/etc/passwd")

        program.rename(app / "moved.py")
        assert await refused(client, str(program)) == (
            f"Source file '{program}' referenced by the debug adapter but not found on disk")
        assert (await tools.ok("continue"))["state"] == "paused"  # the session carries on


async def test_a_new_session_starts_with_nothing_allowed(app: Path):
    program = app / "counter.py"
    other = app / "other.py"
    async with connect("stdio", "legacy") as client:
        tools = Tools(client)
        await tools.ok("debug", mode="source", path=str(program), args=["3"],
                       breakpoints=[{"file": str(program), "line": marker(program, "work")},
                                    {"file": str(other), "line": 2}])
        assert (await client.read_resource(uri(str(other)))).contents[0].text
        await tools.ok("stop")
        await tools.ok("debug", mode="source", path=str(program), args=["3"], stopOnEntry=True)
        assert "not referenced" in await refused(client, str(other))
