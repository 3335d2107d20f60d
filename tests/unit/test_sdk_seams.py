"""The MCP SDK's private parts dap2mcp relies on stay in server/sdk.py, and are still there; so do the two public
parts used in a way the SDK does not document (a Tool's `fn_metadata.output_model`, set to None by binding.py, and
the "Unknown tool" text app.py reads).

An SDK upgrade that moves one fails here, naming what to re-read in sdk.py's docstring (or binding.py, or app.py),
instead of failing at run time (or, for `connection_of`, quietly keying per-client state on each request)."""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import importlib.util
import inspect
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated

import pytest
from mcp import Client
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.session import ServerSession
from mcp.types import CallToolResult
from pydantic import BaseModel

import dap2mcp
from dap2mcp.errors import ErrorCode
from dap2mcp.server import app, binding, sdk
from dap2mcp.session.debugger import Debugger

SRC = Path(dap2mcp.__file__).parent
SDK_MODULE = SRC / "server" / "sdk.py"
SDK_PACKAGES = ("mcp", "mcp_types")
VERSION = importlib.metadata.version("mcp")


def recheck(what: str, where: str = "src/dap2mcp/server/sdk.py's docstring") -> str:
    return (f"mcp {VERSION} (sdk.py was checked on {sdk.CHECKED_ON}): {what}. Re-read that use in "
            f"{where} against the SDK's source, then update it (and the SDK section of docs/how-it-is-built.md)")


def test_the_sdk_is_the_version_sdk_py_was_checked_on():
    assert VERSION == sdk.CHECKED_ON, recheck("another version is installed; each private use may have "
                                              "moved, or gained a public seam")


def test_the_low_level_server_is_the_one_mcpserver_runs():
    server = MCPServer("probe")
    try:
        low = sdk.lowlevel(server)
    except AttributeError as exc:
        pytest.fail(recheck(f"MCPServer has no `_lowlevel_server` ({exc})"))
    assert isinstance(low, Server), recheck(f"`MCPServer._lowlevel_server` is a {type(low).__name__}, not a Server")
    assert low.middleware is server.middleware, recheck("`MCPServer.middleware` is no longer the low-level server's")
    assert list(inspect.signature(low.run).parameters)[:3] == ["read_stream", "write_stream", "initialization_options"], \
        recheck("`Server.run` no longer takes (read_stream, write_stream, initialization_options), as stdio.py calls it")


async def test_the_initialize_result_advertises_the_options_given():
    params = list(inspect.signature(Server.create_initialization_options).parameters)
    assert params[1:2] == ["notification_options"], recheck("`Server.create_initialization_options` no longer takes "
                                                     "`notification_options` first")
    server = MCPServer("probe")
    sdk.advertise_list_changes(server, NotificationOptions(resources_changed=True))
    async with Client(server, mode="legacy") as client:  # the 2025-11-25 handshake, where the flag is read
        resources = client.server_capabilities.resources
    assert resources is not None and resources.list_changed is True, \
        recheck("the initialize result no longer comes from the instance's `create_initialization_options`")


def test_the_span_middleware_is_in_the_chain():
    assert importlib.util.find_spec("mcp.server._otel") is not None, recheck("`mcp.server._otel` is gone")
    spans = [m for m in MCPServer("probe").middleware if isinstance(m, sdk.OpenTelemetryMiddleware)]
    assert len(spans) == 1, recheck(f"`MCPServer.middleware` holds {len(spans)} OpenTelemetryMiddleware, not one")
    assert list(inspect.signature(spans[0]).parameters) == ["ctx", "call_next"], \
        recheck("OpenTelemetryMiddleware is no longer called as (ctx, call_next), as app.py's _WhileTraced calls it")


def test_a_sessions_connection_is_the_one_it_was_made_for():
    assert "connection" in inspect.signature(ServerSession).parameters, \
        recheck("ServerSession is no longer made with the client's `connection`")
    connection = SimpleNamespace(protocol_version="2025-11-25")
    session = ServerSession(SimpleNamespace(), connection)  # type: ignore[arg-type]
    assert sdk.connection_of(session) is connection, recheck("`ServerSession._connection` is not its connection")
    assert sdk.connection_of(None) is None


# -- public names, used as the SDK does not document: binding.py and app.py ---------------------------------------


class _Shape(BaseModel):
    n: int


_OFF_SHAPE = {"n": "not a number"}


@binding.tool("probe-shape")
async def _off_shape(debugger: Debugger) -> Annotated[CallToolResult, _Shape]:
    """Answers what its output model would refuse."""
    return CallToolResult(content=[], structured_content=_OFF_SHAPE)


async def _off_shape_unbound() -> Annotated[CallToolResult, _Shape]:
    return CallToolResult(content=[], structured_content=_OFF_SHAPE)


BIND = "src/dap2mcp/server/binding.py (`bind`'s docstring)"
UNKNOWN = "src/dap2mcp/server/app.py (`_as_debug_error`)"


async def test_a_bound_tool_publishes_its_output_schema_but_its_results_are_not_checked_against_it():
    """binding.bind sets `fn_metadata.output_model = None` on each Tool: the SDK would check every result
    against the model, which only repeats what building the result from the model did."""
    assert "output_model" in type(Tool.from_function(_off_shape_unbound).fn_metadata).model_fields, \
        recheck("a Tool's `fn_metadata` has no `output_model`, which binding.bind sets to None", BIND)
    checked = Tool.from_function(_off_shape_unbound, name="probe-checked", structured_output=True)
    with pytest.raises(ToolError):  # the control: left alone, the SDK checks a result against the model
        await MCPServer("probe", tools=[checked]).call_tool("probe-checked", {})
    bound = binding.bind(_off_shape, Debugger())
    assert bound.output_schema is not None and "n" in bound.output_schema.get("properties", {}), \
        recheck("the output schema is no longer published once `fn_metadata.output_model` is None", BIND)
    try:
        result = await MCPServer("probe", tools=[bound]).call_tool("probe-shape", {})
    except ToolError as exc:
        pytest.fail(recheck(f"the SDK checks a result against the output model though `output_model` is None ({exc})",
                            BIND))
    assert isinstance(result, CallToolResult) and result.structured_content == _OFF_SHAPE


async def test_an_unknown_tool_is_a_tool_error_that_says_so():
    """app.py's `_as_debug_error` knows a call of an unknown tool only by the SDK's text, "Unknown tool", on a
    ToolError with no cause: with another text the agent would get INTERNAL for a misspelled tool name."""
    with pytest.raises(ToolError) as caught:
        await MCPServer("probe").call_tool("no-such-tool", {})
    assert "Unknown tool" in str(caught.value) and caught.value.__cause__ is None, \
        recheck(f"an unknown tool is refused as {type(caught.value).__name__}({str(caught.value)!r}), "
                f"cause {caught.value.__cause__!r}, where app.py matches 'Unknown tool'", UNKNOWN)
    assert app._as_debug_error("no-such-tool", caught.value).code == ErrorCode.INVALID_ARGUMENT


# -- no other module reaches in -------------------------------------------------------------------


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@functools.cache
def sdk_private_names() -> frozenset[str]:
    """Every private name the SDK defines: its modules, classes and functions, the attributes it assigns."""
    names: set[str] = set()
    for package in SDK_PACKAGES:
        root = Path(importlib.util.find_spec(package).origin).parent  # type: ignore[arg-type, union-attr]
        for path in root.rglob("*.py"):
            names.update(part for part in path.relative_to(root.parent).with_suffix("").parts if _private(part))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(node.name)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    names.add(node.attr)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.add(node.id)
    return frozenset(name for name in names if _private(name))


def _from_sdk(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in SDK_PACKAGES


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Subscript | ast.Attribute | ast.Call):
        node = node.value if not isinstance(node, ast.Call) else node.func
    return node.id if isinstance(node, ast.Name) else None


class _PrivateUses(ast.NodeVisitor):
    """SDK private names in one module: imported from a private module or by a private name, read as an
    attribute (or through getattr and kin) of anything but our own objects, and read on `self` in a class
    that subclasses an SDK class, where the name may be the SDK's."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names
        self.found: list[tuple[int, str]] = []
        self.sdk_bound: set[str] = set()
        self.classes: list[bool] = []

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if _from_sdk(alias.name):
                self.sdk_bound.add(alias.asname or alias.name.split(".")[0])
                if any(_private(part) for part in alias.name.split(".")):
                    self.found.append((node.lineno, f"import {alias.name}"))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not _from_sdk(node.module):
            return
        assert node.module is not None
        for alias in node.names:
            self.sdk_bound.add(alias.asname or alias.name)
            if any(_private(part) for part in [*node.module.split("."), alias.name]):
                self.found.append((node.lineno, f"from {node.module} import {alias.name}"))

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(any(_root(base) in self.sdk_bound for base in node.bases))
        self.generic_visit(node)
        self.classes.pop()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
        if node.attr in self.names and (not own or (self.classes and self.classes[-1])):
            self.found.append((node.lineno, f".{node.attr}"))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if (isinstance(node.func, ast.Name) and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value in self.names):
            self.found.append((node.lineno, f"{node.func.id}(..., {node.args[1].value!r})"))
        self.generic_visit(node)


def private_uses(source: str) -> list[tuple[int, str]]:
    visitor = _PrivateUses(sdk_private_names())
    visitor.visit(ast.parse(source))
    return visitor.found


def test_only_sdk_py_names_the_sdks_private_parts():
    found = [f"{path.relative_to(SRC.parent)}:{line}: {what}"
             for path in sorted(SRC.rglob("*.py")) if path != SDK_MODULE
             for line, what in private_uses(path.read_text(encoding="utf-8"))]
    assert not found, ("SDK private names outside src/dap2mcp/server/sdk.py; reach them through a function of "
                       "sdk.py, whose docstring says why there is no public seam:\n" + "\n".join(found))


def test_sdk_py_is_where_they_are():
    """The check above sees what sdk.py does, so it would see the same anywhere else."""
    found = {what for _, what in private_uses(SDK_MODULE.read_text(encoding="utf-8"))}
    assert found == {"from mcp.server._otel import OpenTelemetryMiddleware", "._lowlevel_server",
                     "getattr(..., '_connection')"}, found


@pytest.mark.parametrize("source", [
    "import mcp.server._otel",
    "from mcp.shared import _otel",
    "def f(server):\n    return server._tool_manager",
    "from mcp.server.mcpserver import MCPServer\nclass S(MCPServer[int]):\n    def f(self):\n        return self._tool_manager",
    "def f(session):\n    return getattr(session, '_connection', None)",
])
def test_each_way_of_reaching_in_is_seen(source: str):
    assert private_uses(source), source


def test_our_own_private_names_are_not_taken_for_the_sdks():
    assert not private_uses("class Mine:\n    def f(self):\n        return self._tool_manager\n"
                            "import os\nos._exit(0)\n")
