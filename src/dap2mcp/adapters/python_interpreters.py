"""Which Python runs a launched program (issue 34 point 2): the agent's `python`; else the project's own
virtualenv, as the project's developers run it; else the virtualenv the server runs in (`VIRTUAL_ENV`); else the
first python3 on PATH. A program run on another interpreter than its project's fails far from the cause: a module
not found, a dependency of another version."""

from __future__ import annotations

import os
import shutil
import sys

from ..errors import DebugError, ErrorCode
from .base import Interpreter, Target

PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")
"""What the root of a project holds: the first folder upward that holds one is where its virtualenv is looked for."""
VIRTUALENVS = (".venv", "venv")
"""Where a project keeps its virtualenv, by the names `python -m venv` is most often given, the first found wins."""


def choose(target: Target) -> Interpreter:
    """The interpreter for `target`, and how it was chosen. Only the agent's `python` is refused where it does not
    run: the others are taken only where they are there to run."""
    if target.python:
        return Interpreter(find_python(target.python), "given (`python`)")
    start = _start(target)
    project = project_root(start)
    if project is not None:
        for name in VIRTUALENVS:
            if _runs(python := os.path.join(project, name, "bin", "python")):
                return Interpreter(python, f"the project's virtualenv {os.path.join(project, name)}")
    if (venv := os.environ.get("VIRTUAL_ENV")) and _runs(python := os.path.join(venv, "bin", "python")):
        return Interpreter(python, f"the server's VIRTUAL_ENV {venv}")
    where = f"the project at {project} has no .venv or venv" if project is not None else \
        f"no project folder (pyproject.toml, setup.cfg, setup.py, .git) at or above {start}"
    return Interpreter(find_python(None), f"python3 on PATH ({where}, and no VIRTUAL_ENV is set)")


def find_python(requested: str | None) -> str:
    """The interpreter asked for, found on PATH where it is a bare name; else the first python3 on PATH."""
    candidate = requested or shutil.which("python3") or sys.executable
    resolved = shutil.which(candidate) if os.path.sep not in candidate else candidate
    if not resolved or not os.access(resolved, os.X_OK):
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"Python interpreter not found: {candidate}")
    return resolved


def project_root(start: str) -> str | None:
    """The first folder from `start` upward that holds a project marker (`PROJECT_MARKERS`), None without one."""
    folder = start
    while True:
        if any(os.path.exists(os.path.join(folder, marker)) for marker in PROJECT_MARKERS):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _start(target: Target) -> str:
    """Where the project is looked for from: `cwd`, else the program's folder (the tests' in mode `test`, which
    may name a folder), else the server's working directory (a module run without `cwd`)."""
    if target.cwd or not target.file:
        return target.files_from
    named = target.absolute(target.file)
    return named if os.path.isdir(named) else os.path.dirname(named)


def _runs(python: str) -> bool:
    return os.path.isfile(python) and os.access(python, os.X_OK)
