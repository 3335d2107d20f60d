"""The interpreter a Python program runs on: refused when it is not Python 3, asked what it is only when its
file changed, and checked while the adapter starts rather than before it (issue 23 point 8); the project's own
virtualenv, else the server's VIRTUAL_ENV, where `python` is not given, named in the first answer (issue 34
point 2)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from conftest import INVOICE, server_processes, stdio_tools

REAL_PYTHON = Path(os.path.realpath(sys.executable))


def count_asks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, python: Path) -> Path:
    """Make every `python -c ...` run of `python` (the check's way of asking) write a line to the file returned:
    a sitecustomize on the server's PYTHONPATH, which its child processes inherit."""
    hook, asked = tmp_path / "hook", tmp_path / "asked"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        "import sys\n"
        f"if sys.orig_argv[:1] == [{str(python)!r}] and '-c' in sys.orig_argv:\n"
        f"    open({str(asked)!r}, 'a').write(' '.join(sys.orig_argv) + '\\n')\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, (str(hook), os.environ.get("PYTHONPATH")))))
    asked.touch()
    return asked


def asks(log: Path) -> int:
    return len(log.read_text().splitlines())


async def test_an_interpreter_is_asked_once_until_its_file_is_replaced_or_removed(tmp_path, monkeypatch):
    python = tmp_path / "bin" / "python3"  # a copy of the interpreter, as a venv's or pyenv's own file
    python.parent.mkdir()
    shutil.copy2(REAL_PYTHON, python)
    log = count_asks(tmp_path, monkeypatch, python)
    async with stdio_tools() as tools:
        for _ in range(2):
            started = await tools.ok("debug", mode="source", path=str(INVOICE), python=str(python), stopOnEntry=True)
            assert started["state"] == "paused"
            assert (await tools.read_json("debugger://session"))["runtimeVersion"] == \
                f"Python {sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro}"
        assert asks(log) == 1, "the same interpreter file was asked again what it is"

        shutil.copy2("/bin/false", tmp_path / "new")  # replaced, as an installer does, by something not Python
        os.replace(tmp_path / "new", python)
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(INVOICE), python=str(python))
        assert "not a working Python 3 interpreter" in message
        assert (await tools.ok("context"))["state"] == "paused", "a refused start must not end the current session"

        python.unlink()
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(INVOICE), python=str(python))
        assert "not found" in message

        shutil.copy2(REAL_PYTHON, python)  # back, with the same times: a new file all the same
        started = await tools.ok("debug", mode="source", path=str(INVOICE), python=str(python), stopOnEntry=True)
        assert started["state"] == "paused"
        assert asks(log) == 2
        await tools.ok("stop")


async def test_a_wrapper_script_is_asked_at_each_debug_while_the_adapter_starts(tmp_path, monkeypatch):
    """A pyenv shim or a wrapper may run another Python tomorrow without changing itself, so it is asked each
    time; the adapter starts meanwhile. The wrapper waits (at most 10 s, far above a start) until a debug
    adapter runs beside it under the server before it answers: without the overlap it would wait in vain."""
    seen = tmp_path / "adapter seen"
    python = tmp_path / "python3"
    python.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = -c ]; then\n'
        "  for i in $(seq 100); do\n"
        f"    if ps -o args= --ppid $PPID | grep -q debugpy.adapter; then echo yes >> '{seen}'; break; fi\n"
        "    sleep 0.1\n"
        "  done\n"
        "fi\n"
        f'exec {REAL_PYTHON} "$@"\n')
    python.chmod(0o755)
    async with stdio_tools() as tools:
        for round_ in (1, 2):
            started = await tools.ok("debug", mode="source", path=str(INVOICE), python=str(python), stopOnEntry=True)
            assert started["state"] == "paused"
            assert seen.exists() and len(seen.read_text().splitlines()) == round_, \
                "the wrapper was not asked at this `debug`, or no adapter started while it was"
        await tools.ok("stop")


async def test_a_refused_interpreter_leaves_no_adapter_behind(tmp_path):
    python = tmp_path / "python3"  # slow to refuse, so the adapter has started when it does
    python.write_text("#!/bin/sh\nsleep 1\necho 2.7.18\n")
    python.chmod(0o755)
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(INVOICE), stopOnEntry=True)
        (server,) = server_processes()
        before = {p.pid for p in server.children()}
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(INVOICE), python=str(python))
        assert "not a working Python 3 interpreter" in message
        assert {p.pid for p in server.children() if p.status() != psutil.STATUS_ZOMBIE} == before, \
            "the adapter started for the refused program is still there"
        assert (await tools.ok("context"))["state"] == "paused"
        await tools.ok("stop")


SAYS_WHERE = "import sys\nprint('ran on', sys.executable)\n"


def virtualenv(folder: Path) -> Path:
    """A virtualenv with nothing installed in it (debugpy puts itself on the program's path): its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    return folder / "bin" / "python"


def project(root: Path, marker: str = "pyproject.toml") -> Path:
    """A project folder (its marker file) with the program in a subfolder, `src/app.py`: the subfolder."""
    (root / "src").mkdir(parents=True)
    (root / marker).write_text("")
    (root / "src" / "app.py").write_text(SAYS_WHERE)
    return root / "src"


@pytest.mark.parametrize(("folder", "how"), [(".venv", "source"), ("venv", "module")])
async def test_a_program_runs_on_its_projects_virtualenv_found_upward_from_cwd(tmp_path, monkeypatch, folder, how):
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    src = project(tmp_path / "proj")
    python = virtualenv(tmp_path / "proj" / folder)
    place = {"path": "app.py"} if how == "source" else {"module": "app"}
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", mode="source", cwd=str(src), **place)
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert ended["interpreter"]["path"] == str(python), ended
        assert str(tmp_path / "proj" / folder) in ended["interpreter"]["chosen"], ended
        assert f"ran on {python}\n" in ended["output"]["text"], ended


async def test_without_a_project_virtualenv_the_servers_virtualenv_then_path_python3(tmp_path, monkeypatch):
    """The search stops at the first project folder upward: an inner project without a virtualenv does not
    run on the one of the project around it."""
    outer = tmp_path / "outer"
    virtualenv(outer / ".venv")
    src = project(outer / "inner", marker=".git")
    (outer / ".git").mkdir()
    server_env = virtualenv(tmp_path / "server-env")
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "server-env"))
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", mode="source", path=str(src / "app.py"))
        assert ended["interpreter"]["path"] == str(server_env) and "VIRTUAL_ENV" in ended["interpreter"]["chosen"]
        assert f"ran on {server_env}\n" in ended["output"]["text"], ended
        await tools.ok("stop")
    monkeypatch.delenv("VIRTUAL_ENV")
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", mode="source", path=str(src / "app.py"))
        assert ended["interpreter"]["path"] == shutil.which("python3"), ended
        assert ended["interpreter"]["chosen"].startswith("python3 on PATH"), ended
        await tools.ok("stop")


async def test_a_given_python_wins_over_the_projects_virtualenv(tmp_path):
    src = project(tmp_path / "proj")
    virtualenv(tmp_path / "proj" / ".venv")
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", mode="source", path=str(src / "app.py"), python=str(REAL_PYTHON))
        assert ended["interpreter"] == {"path": str(REAL_PYTHON), "chosen": "given (`python`)"}, ended
        assert f"ran on {REAL_PYTHON}\n" in ended["output"]["text"], ended
        await tools.ok("stop")


async def test_tests_are_checked_for_pytest_on_the_interpreter_that_runs_them(tmp_path, monkeypatch):
    """The project's virtualenv, without pytest in it, is the one named: the check and the run agree."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    src = project(tmp_path / "proj")
    (src / "test_app.py").write_text("def test_one():\n    assert True\n")
    python = virtualenv(tmp_path / "proj" / ".venv")
    async with stdio_tools() as tools:
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="test", path="test_app.py", cwd=str(src))
        assert f"which {python} cannot import" in message, message
