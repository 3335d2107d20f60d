"""dap2mcp installed the way MCP servers are installed, with no checkout: the sdist and wheel built (`python -m
build`, the wheel from the sdist, so that a file missing from either shows), the wheel installed by pipx into a fresh
venv of its own, `dap2mcp install node` fetching js-debug into an empty data directory, and a Python and a Node
program debugged through MCP by that install's own `dap2mcp` command, run from a folder with nothing of the checkout
beside it. `uvx --from` the wheel runs it too."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from mcp import StdioServerParameters

from conftest import ROOT, Tools, connect, locals_of

pytestmark = pytest.mark.timeout(1200)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding the sdist and the wheel built from it."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], capture_output=True,
                          text=True, timeout=900, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def _wheel(built: Path) -> Path:
    (wheel,) = built.glob("dap2mcp-*-py3-none-any.whl")
    return wheel


@pytest.fixture(scope="module")
def installed(built: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment a pipx user has: pipx's bin folder first on PATH, its own data directory, no checkout."""
    home = tmp_path_factory.mktemp("user")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env |= {"PIPX_HOME": str(home / "pipx"), "PIPX_BIN_DIR": str(home / "bin"), "XDG_DATA_HOME": str(home / "data"),
            "PATH": f"{home / 'bin'}{os.pathsep}{env['PATH']}"}
    done = subprocess.run([sys.executable, "-m", "pipx", "install", "--python", _system_python(), str(_wheel(built))],
                          capture_output=True, text=True, timeout=900, env=env, cwd=home, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    env["HOME_FOLDER"] = str(home)
    return env


def _system_python() -> str:
    """The interpreter the test venv was made from: the pipx venv is its own, not the test venv's."""
    return os.path.realpath(getattr(sys, "_base_executable", sys.executable))


def test_the_sdist_and_wheel_carry_what_dap2mcp_reads_at_run_time(built: Path) -> None:
    import tarfile
    import zipfile

    (sdist,) = built.glob("dap2mcp-*.tar.gz")
    with zipfile.ZipFile(_wheel(built)) as archive:
        in_wheel = set(archive.namelist())
    with tarfile.open(sdist) as archive:
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for data in ("dap2mcp/install/js-debug.sha256", "dap2mcp/install/java-host.sha256",
                 "dap2mcp/install/gdb-adapter/package-lock.json", "dap2mcp/adapters/java_host/pom.xml",
                 "dap2mcp/adapters/node_console.cjs", "dap2mcp/adapters/ruby_preload.rb"):
        assert data in in_wheel, data
        assert f"src/{data}" in in_sdist, data
    assert any(name.startswith("dap2mcp/adapters/java_host/src/") and name.endswith(".java") for name in in_wheel)


def test_a_pipx_install_tells_its_version_and_runs_from_its_own_venv(installed: dict[str, str]) -> None:
    home = Path(installed["HOME_FOLDER"])
    done = subprocess.run(["dap2mcp", "--version"], capture_output=True, text=True, env=installed, cwd=home)
    assert done.returncode == 0 and done.stdout.strip() == "dap2mcp 0.1.0", done.stdout + done.stderr
    python = home / "pipx" / "venvs" / "dap2mcp" / "bin" / "python"
    where = subprocess.run([str(python), "-c", "import dap2mcp; print(dap2mcp.__file__)"], capture_output=True,
                           text=True, env=installed, cwd=home).stdout.strip()
    assert where.startswith(str(home / "pipx")), where
    skill = subprocess.run(["dap2mcp", "skill"], capture_output=True, text=True, env=installed, cwd=home).stdout.strip()
    assert skill.startswith(str(home / "pipx")) and (Path(skill) / "SKILL.md").read_text().startswith("---\nname: dap2mcp\n")


async def test_install_node_then_debug_python_and_node_programs_through_mcp(installed: dict[str, str]) -> None:
    home = Path(installed["HOME_FOLDER"])
    # before: doctor, and debug's ADAPTER_NOT_FOUND, name the command that fetches js-debug
    doctor = subprocess.run(["dap2mcp", "doctor"], capture_output=True, text=True, env=installed, cwd=home, timeout=120)
    row = next(line for line in doctor.stdout.splitlines() if " js-debug " in line)
    assert "MISSING  install with: dap2mcp install node" in row, row
    programs = home / "programs"
    programs.mkdir()
    (programs / "tally.py").write_text(textwrap.dedent("""\
        def tally(items):
            total = sum(items)
            return total

        print(tally([3, 4, 5]))
        """))
    (programs / "tally.js").write_text(textwrap.dedent("""\
        function tally(items) {
          const total = items.reduce((a, b) => a + b, 0);
          return total;
        }
        console.log(tally([3, 4, 5]));
        """))
    params = StdioServerParameters(command="dap2mcp", args=[], env=installed, cwd=str(programs))  # as mcp.json has it
    async with connect("stdio", "auto", params=params) as client:
        tools = Tools(client)
        refused = await tools.error("debug", "ADAPTER_NOT_FOUND", mode="source", path=str(programs / "tally.js"))
        assert "node needs js-debug (adapter), which is not installed; install it with: dap2mcp install node" \
            in refused, refused
        fetched = subprocess.run(["dap2mcp", "install", "node"], capture_output=True, text=True, env=installed,
                                 cwd=home, timeout=900, stdin=subprocess.DEVNULL)
        assert fetched.returncode == 0, fetched.stderr
        assert (home / "data" / "dap2mcp" / "js-debug" / "vsDebugServer.js").is_file()
        for program in ("tally.py", "tally.js"):  # the same server, js-debug now found
            path = str(programs / program)
            stop = await tools.ok("debug", mode="source", path=path, breakpoints=[{"file": path, "line": 3}])
            assert stop["reason"] == "breakpoint" and stop["location"]["line"] == 3, stop
            assert locals_of(stop)["total"] == "12", stop
            end = await tools.ok("continue")
            assert end["state"] == "terminated" and "12" in end["output"]["text"], end
            await tools.ok("stop", sessionId=end["sessionId"])


def test_uvx_runs_the_wheel(built: Path, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env |= {"UV_TOOL_DIR": str(tmp_path / "tools"), "XDG_DATA_HOME": str(tmp_path / "data")}
    uvx = Path(sys.executable).with_name("uvx")
    done = subprocess.run([str(uvx), "--python", _system_python(), "--from", str(_wheel(built)), "dap2mcp",
                           "--version"], capture_output=True, text=True, timeout=900, env=env, cwd=tmp_path,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and done.stdout.strip() == "dap2mcp 0.1.0", done.stdout + done.stderr
