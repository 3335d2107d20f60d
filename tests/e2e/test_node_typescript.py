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


async def test_a_ts_breakpoint_in_a_tsc_build_binds_before_its_file_loads(tmp_path: Path) -> None:
    project = built(tmp_path)
    inventory = project / "src" / "inventory.ts"
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(project / "dist" / "app.js"), cwd=str(project),
                              breakpoints=[at(inventory, "add")])
        assert stop["state"] == "paused" and stop["reason"] == "breakpoint", stop
        assert stop["location"]["file"] == "src/inventory.ts" and stop["location"]["line"] == marker(inventory, "add")
        assert [Path(f["file"]).name for f in stop["frames"][:2]] == ["inventory.ts", "app.ts"], stop["frames"]
        assert stop["frames"][1]["line"] == marker(project / "src" / "app.ts", "entry") + 1
        assert locals_of(stop)["sku"] == "'bolt'"


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
