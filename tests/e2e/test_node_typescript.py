"""TypeScript as projects run it (issue 35 point 1): built by `tsc` into `dist/` with source maps (CommonJS and ES
module output), or run by `tsx`; and an ES module's top level (point 7). tests/programs/ts_project is built here, in
tmp_path, by tests/npm's tsc (scripts/test.sh installs it), and run by tests/npm's Node 22."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import PROGRAMS, ROOT, locals_of, marker, stdio_tools

PROJECT = PROGRAMS / "ts_project"
BIN = ROOT / "tests" / "npm" / "node_modules" / ".bin"


@pytest.fixture(autouse=True)
def node_22_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/npm's Node 22, tsc and tsx first on PATH, for the server and the builds."""
    assert (BIN / "tsc").exists(), f"{BIN / 'tsc'} is missing: run scripts/test.sh, which installs tests/npm"
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ['PATH']}")


def built(tmp_path: Path, *tsc_options: str, package: dict[str, object] | None = None) -> Path:
    """A copy of the project in tmp_path, built by tsc with `tsc_options` (`package`: its package.json)."""
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    if package is not None:
        (project / "package.json").write_text(json.dumps(package))
    subprocess.run([str(BIN / "tsc"), "-p", str(project), *tsc_options], check=True, timeout=120)
    return project


def at(path: Path, name: str) -> dict[str, object]:
    return {"file": str(path), "line": marker(path, name)}


def with_tsx(tmp_path: Path) -> Path:
    """A copy of the project with tsx in its node_modules (tests/npm's), as a project run by tsx has it."""
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    (project / "node_modules").mkdir()
    (project / "node_modules" / "tsx").symlink_to(BIN.parent / "tsx")
    return project


RUNS = {
    # how the project is built, and the file run
    "tsc, CommonJS": (lambda tmp: built(tmp), "dist/app.js"),
    "tsc, ES modules": (lambda tmp: built(tmp, "--module", "nodenext", "--moduleResolution", "nodenext",
                                          package={"type": "module"}), "dist/app.js"),
    "tsx": (with_tsx, "src/app.ts"),
}


@pytest.mark.parametrize("run", RUNS)
async def test_a_ts_breakpoint_binds_before_its_file_loads_and_stops_name_the_ts_files(tmp_path: Path, run: str) -> None:
    build, program = RUNS[run]
    project = build(tmp_path)
    inventory, app = project / "src" / "inventory.ts", project / "src" / "app.ts"
    async with stdio_tools() as tools:
        # inventory.ts loads as app.ts starts, and add() runs at once: bound late, the breakpoint would be passed
        stop = await tools.ok("debug", mode="source", path=str(project / program), cwd=str(project),
                              breakpoints=[at(inventory, "add")])
        assert stop["state"] == "paused" and stop["reason"] == "breakpoint", stop
        assert stop["location"]["file"] == "src/inventory.ts" and stop["location"]["line"] == marker(inventory, "add")
        assert [(f["file"], f["line"]) for f in stop["frames"][:2]] == [
            ("src/inventory.ts", marker(inventory, "add")), ("src/app.ts", marker(app, "entry") + 1)], stop["frames"]
        assert locals_of(stop)["sku"] == "'bolt'"
        later = await tools.ok("breakpoint", **at(app, "later"))
        assert later["verified"], later
        await tools.ok("breakpoint", id=1, enabled=False)
        stop = await tools.ok("continue")
        assert (stop["location"]["file"], stop["location"]["line"]) == ("src/app.ts", marker(app, "later")), stop



@pytest.mark.parametrize("run", RUNS)
async def test_stop_on_entry_stops_at_the_ts_top_levels_first_statement_before_it_runs(tmp_path: Path, run: str) -> None:
    build, program = RUNS[run]
    project = build(tmp_path)
    app = project / "src" / "app.ts"
    async with stdio_tools() as tools:
        # js-debug's own entry stop came where V8 put a breakpoint at the file's start: in the first function declared
        entry = await tools.ok("debug", mode="source", path=str(project / program), cwd=str(project), stopOnEntry=True)
        assert entry["reason"] == "entry" and entry["sessionId"] == "s2", entry
        assert (entry["location"]["file"], entry["location"]["line"]) == ("src/app.ts", marker(app, "entry")), entry
        assert "breakpointIds" not in entry, entry  # dap2mcp's breakpoint there is its own, gone after the stop
        step = await tools.ok("step", mode="over")
        if step["location"]["line"] == marker(app, "entry"):  # V8 stops twice in a compiled `new` and assignment
            step = await tools.ok("step", mode="over")
        assert step["location"]["line"] == marker(app, "entry") + 1, step
        done = await tools.ok("continue")
        assert done["state"] == "terminated" and done["exitCode"] == 0, done


@pytest.mark.parametrize("program", [PROGRAMS / "ledger.js", PROGRAMS / "shelf.mjs"])
async def test_stop_on_entry_stops_at_a_javascript_top_levels_first_statement(program: Path) -> None:
    """ledger.js declares its functions first: js-debug's entry stop came inside `fee`, after `main` had begun."""
    first = {"ledger.js": "main(process.argv[2]);", "shelf.mjs": 'const shelf = ["bolt", "nut", "gear"];'}
    async with stdio_tools() as tools:
        entry = await tools.ok("debug", mode="source", path=str(program), stopOnEntry=True)
        assert entry["reason"] == "entry" and entry["location"]["text"] == first[program.name], entry
        assert [f["function"] for f in entry["frames"]][:1] == ["<anonymous>"]


SHELF = PROGRAMS / "shelf.mjs"


def scope(stop: dict[str, object], name: str) -> dict[str, object]:
    return next(s for s in stop["scopes"] if s["name"] == name)


async def test_an_es_modules_top_level_variables_are_listed_at_a_stop_there() -> None:
    async with stdio_tools() as tools:
        inside = await tools.ok("debug", mode="source", path=str(SHELF),
                                breakpoints=[at(SHELF, "count"), at(SHELF, "top")])
        # in a function of the module, the module's scope (its functions' sources too) is named, as a closure is
        assert inside["location"]["line"] == marker(SHELF, "count") and locals_of(inside)["items"].startswith("(3)")
        assert scope(inside, "Module") == {"name": "Module", "variables": [], "expensive": True}, inside["scopes"]
        top = await tools.ok("continue")
        assert top["location"]["line"] == marker(SHELF, "top"), top
        listed = {v["name"]: v["value"] for v in scope(top, "Module")["variables"]}
        assert listed["total"] == "3" and listed["counted"] == "3" and listed["shelf"] == "(3) ['bolt', 'nut', 'gear']"
