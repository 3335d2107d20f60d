"""The layering docs/how-it-is-built.md describes, checked on the sources: no import cycle anywhere (imports made only for type
checking included), the server reaching sessions only through the debugger, and the DAP wire naming failures
by type, never by the agent's error codes, which the server assigns in one place."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dap2mcp.dap import AdapterGone, AdapterMissing, AdapterRefused, AdapterTimedOut
from dap2mcp.errors import DebugError, ErrorCode, Failure
from dap2mcp.server.failures import coded

SRC = Path(__file__).resolve().parents[2] / "src" / "dap2mcp"


def _module(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, package: str | None = None) -> set[str]:
    """Every dap2mcp module `path` imports, wherever the import statement stands (under TYPE_CHECKING too).
    `package`: the one relative imports start from (by default, the one `path` is in)."""
    if package is None:
        package = _module(path) if path.name == "__init__.py" else _module(path).rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("dap2mcp"):
                found.add(target)
                found.update(f"{target}.{alias.name}" for alias in node.names)  # `from . import x` imports x
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("dap2mcp"))
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in SRC.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        graph[name] = {m for m in _imports(path) if m in modules and m != name}
    return graph


def test_no_module_imports_in_a_circle() -> None:
    graph = _graph()
    packages = {name for name in graph if (SRC.parent / name.replace(".", "/") / "__init__.py").exists()}
    # a package's __init__ re-exports its modules: an edge into a package is an edge into what it re-exports,
    # and the package importing its own modules is not a cycle through the importer
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if nxt in packages and node.startswith(nxt + "."):
                continue
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_cycle_check_sees_an_import_made_only_for_type_checking(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .session import X\n")
    assert "dap2mcp.session.session" in _imports(source, "dap2mcp.session")


def test_the_server_reaches_sessions_only_through_the_debugger() -> None:
    # the door, a call's handle on one session, the shapes of their answers, and the typed values the server
    # parses its input into
    front = {"dap2mcp.session.debugger", "dap2mcp.session.handle", "dap2mcp.session.models",
             "dap2mcp.session.breakpoints.specs", "dap2mcp.session.program.launch_request"}
    for path in sorted((SRC / "server").glob("*.py")):
        reached = {m for m in _imports(path) if m.startswith("dap2mcp.session")}
        beyond = {m for m in reached if m not in front and m.rsplit(".", 1)[0] not in front}
        assert not beyond, f"{path.name} reaches past the debugger into {sorted(beyond)}"
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("request", "send") and node.args \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                raise AssertionError(f"{path.name}:{node.lineno} sends the DAP request {node.args[0].value!r}")


def test_the_wire_names_no_agent_error_code() -> None:
    for path in sorted((SRC / "dap").glob("*.py")):
        names = {n.id for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Name)} | {
            n.attr for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Attribute)}
        assert not names & {"ErrorCode", "DebugError"}, f"{path.name} names an agent error code"


@pytest.mark.parametrize(("failure", "code"), [
    (AdapterRefused("evaluate", "name 'x' is not defined"), ErrorCode.ADAPTER_ERROR),
    (AdapterGone("adapter closed the connection"), ErrorCode.ADAPTER_FAILED),
    (AdapterTimedOut("stackTrace", 10.0), ErrorCode.TIMEOUT),
    (AdapterMissing("cannot start 'lldb-dap-19'"), ErrorCode.ADAPTER_NOT_FOUND),
    (DebugError(ErrorCode.NOT_PAUSED, "the program is running"), ErrorCode.NOT_PAUSED),
    (Failure("something else"), ErrorCode.INTERNAL),
])
def test_each_failure_gets_its_code_in_one_place(failure: Failure, code: ErrorCode) -> None:
    error = coded(failure)
    assert error.code == code and error.message == failure.message
