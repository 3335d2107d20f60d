"""docs/how-it-is-built.md names every module of src/dap2mcp by its path there (`session/stop/paused.py`), and no
module that is gone: a module added, moved or removed without the design doc fails here, with the change that
made it, instead of leaving the doc to fall behind."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "dap2mcp"
DOC = ROOT / "docs" / "how-it-is-built.md"
PACKAGES = ("adapters", "dap", "server", "session", "snapshots")


def modules() -> list[str]:
    """Every module's path relative to src/dap2mcp, but a package's `__init__.py` (the package is named instead)."""
    return sorted(path.relative_to(SRC).as_posix() for path in SRC.rglob("*.py") if path.name != "__init__.py")


def named(path: str, text: str) -> bool:
    """`path` written whole: `errors.py` is not named by `dap/errors.py`, nor `session/output.py` by
    `session/output.pyc`."""
    return re.search(rf"(?<![\w/.]){re.escape(path)}(?![\w/])", text) is not None


def test_the_design_doc_names_every_module():
    text = DOC.read_text(encoding="utf-8")
    missing = [path for path in modules() if not named(path, text)]
    assert not missing, ("docs/how-it-is-built.md does not name these modules (by their path under src/dap2mcp/): "
                         + ", ".join(missing) + "; add a line for each under its package in 'The modules'")


def test_the_design_doc_names_no_module_that_is_gone():
    text = DOC.read_text(encoding="utf-8")
    written = set(re.findall(rf"(?<![\w/.])((?:{'|'.join(PACKAGES)})/[\w/]+\.py)(?![\w/])", text))
    gone = sorted(path for path in written if not (SRC / path).is_file())
    assert not gone, f"docs/how-it-is-built.md names modules that are not in src/dap2mcp: {', '.join(gone)}"


def test_a_module_is_named_only_by_its_whole_path():
    assert named("session/stop/paused.py", "- `session/stop/paused.py`: the context")
    assert not named("errors.py", "`dap/errors.py`")
    assert not named("paused.py", "`session/stop/paused.py`")
    assert not named("session/output.py", "`session/output.py/x`")
