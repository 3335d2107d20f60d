"""Where a Python function named `package.module.Class.function` is defined, found as the program's own
interpreter would import it but without importing anything (importing runs a module's code): debugpy
stops at a function breakpoint only by the bare function name, and only in files it counts as the
program's own, so a library function's file must be known before the program gets there."""

from __future__ import annotations

import ast
import functools
import json
import os
import subprocess
from importlib.machinery import PathFinder

IMPORT_HOPS = 3
"""How many `from .x import name` re-exports are followed (`requests.get` is defined in requests/api.py)."""

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def definition_file(name: str, search_path: tuple[str, ...]) -> str | None:
    """The .py file that defines the function `name` (dotted, its module first), or None."""
    found = definition(name, search_path)
    return found[0] if found else None


def definition(name: str, search_path: tuple[str, ...]) -> tuple[str, Definition] | None:
    """The .py file that defines the function `name` (dotted, its module first), and its definition."""
    parts = name.split(".")
    if len(parts) < 2 or not all(part.isidentifier() for part in parts):
        return None
    for cut in range(len(parts) - 1, 0, -1):
        try:
            module = module_file(parts[:cut], search_path)
        except (ImportError, OSError, ValueError):
            continue
        if module is not None and (found := _defined_in(module, parts[cut:], search_path, IMPORT_HOPS)):
            return found
    return None


def module_file(parts: list[str], search_path: tuple[str, ...] | list[str]) -> str | None:
    """The source file of module `parts` (a package's __init__.py), looked up on `search_path` only."""
    locations: list[str] | None = list(search_path)
    origin = None
    for index in range(len(parts)):
        if not locations:
            return None
        spec = PathFinder.find_spec(".".join(parts[: index + 1]), locations)
        if spec is None:
            return None
        locations, origin = spec.submodule_search_locations, spec.origin
    return origin if origin and origin.endswith(".py") else None


def _defined_in(path: str, names: list[str], search_path: tuple[str, ...], hops: int) -> tuple[str, Definition] | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            tree = ast.parse(handle.read(), path)
    except (OSError, SyntaxError, ValueError):
        return None
    body: list[ast.stmt] = tree.body
    for index, name in enumerate(names):
        node = next((n for n in reversed(body) if isinstance(n, Definition) and n.name == name), None)
        if node is None:
            return _imported(path, tree, names, search_path, hops) if index == 0 and hops > 0 else None
        if index == len(names) - 1:
            return (path, node) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else None
        if not isinstance(node, ast.ClassDef):
            return None
        body = node.body
    return None


def _imported(path: str, tree: ast.Module, names: list[str], search_path: tuple[str, ...],
              hops: int) -> tuple[str, Definition] | None:
    """Follow `from module import name` where the module re-exports what is defined elsewhere."""
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        for alias in node.names:
            if (alias.asname or alias.name) != names[0]:
                continue
            parts = (node.module or "").split(".") if node.module else []
            if node.level:
                base = os.path.dirname(path)
                for _ in range(node.level - 1):
                    base = os.path.dirname(base)
                source = module_file(parts, (base,)) if parts else os.path.join(base, "__init__.py")
            else:
                source = module_file(parts, search_path)
            if source is not None and os.path.isfile(source):
                return _defined_in(source, [alias.name, *names[1:]], search_path, hops - 1)
    return None


@functools.lru_cache(maxsize=8)
def search_path(python: str, cwd: str, pythonpath: str, first: str) -> tuple[str, ...]:
    """The program's `sys.path`: its interpreter's, with the program's own directory first (blocking)."""
    env = {**os.environ, "PYTHONPATH": pythonpath}
    try:
        probe = subprocess.run([python, "-c", "import json, sys; print(json.dumps(sys.path[1:]))"], cwd=cwd, env=env,
                               capture_output=True, text=True, timeout=15, stdin=subprocess.DEVNULL)
        found = json.loads(probe.stdout) if probe.returncode == 0 else []
    except (OSError, subprocess.TimeoutExpired, ValueError):
        found = []
    return (first, *(os.path.join(cwd, p) for p in found if isinstance(p, str)))


def only_definition(path: str, name: str) -> Definition | None:
    """The one function named `name` anywhere in the file (a bare name, as pydevd matches it), else None."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            tree = ast.parse(handle.read(), path)
    except (OSError, SyntaxError, ValueError):
        return None
    found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name]
    return found[0] if len(found) == 1 else None


def resumed_first_line(node: Definition) -> tuple[int, str | None] | None:
    """For a generator or `async def` function, whose frames pydevd never takes for a call, the first line of
    its body that runs (a docstring does not), and a condition true only the first time a call gets there:
    none of the names the function assigns is set yet (a loop on that line runs it again at each pass, and
    a generator resumes there). None for another function."""
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    own = _own_nodes(node)
    if not isinstance(node, ast.AsyncFunctionDef) and not any(isinstance(n, ast.Yield | ast.YieldFrom) for n in own):
        return None
    body = node.body
    if len(body) > 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    arguments = node.args
    parameters = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                                  arguments.vararg, arguments.kwarg] if a is not None}
    shared = {name for n in own if isinstance(n, ast.Global | ast.Nonlocal) for name in n.names}
    assigned = sorted({n.id for n in own if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
                      - parameters - shared)
    return body[0].lineno, (f"locals().keys().isdisjoint({tuple(assigned)!r})" if assigned else None)


def _own_nodes(node: ast.AST) -> list[ast.AST]:
    """The nodes of a function's body, not those of functions, lambdas or classes defined in it."""
    found: list[ast.AST] = []
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            found.append(child)
            found.extend(_own_nodes(child))
    return found
