"""A breakpoint spec is parsed once, where the tools take it in, and the session trusts it from there
(pure: the session layer's own models and registry on debugpy's profile, no adapter)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from dap2mcp.adapters import PROFILES
from dap2mcp.adapters.base import FunctionPlace
from dap2mcp.adapters.python import DEBUGPY
from dap2mcp.session.breakpoints.breakpoint import Breakpoint
from dap2mcp.session.breakpoints.dap_form import dap_form
from dap2mcp.session.breakpoints.registry import BreakpointRegistry
from dap2mcp.session.breakpoints.specs import BreakpointChange, BreakpointOptions, BreakpointSpec, Location

NOT_BOTH = "give either function, or file and line (or text), not both"
NO_PLACE = "give file and line (or text, a part of the line), or function"
BLANK_TEXT = "text is blank: give a part of the line's code"
EXCEPTION_OR_PLACE = "give exception, or a place (file and line, function), not both"


@pytest.mark.parametrize(("given", "said"), [
    ({}, NO_PLACE), ({"file": "app.py"}, NO_PLACE), ({"line": 3}, NO_PLACE), ({"file": "", "line": 3}, NO_PLACE),
    ({"function": "main", "line": 3}, NOT_BOTH), ({"function": "main", "file": "app.py"}, NOT_BOTH),
    ({"text": "total +="}, NO_PLACE), ({"function": "main", "text": "x"}, NOT_BOTH), ({"file": "a.py", "text": " "}, BLANK_TEXT),
    ({"exception": "raised", "file": "app.py"}, EXCEPTION_OR_PLACE),
    ({"exception": "raised", "function": "main"}, EXCEPTION_OR_PLACE), ({"exception": "raised", "line": 2}, EXCEPTION_OR_PLACE),
])
def test_a_spec_the_tools_refuse_cannot_be_made_in_the_session_either(given: dict[str, Any], said: str):
    """What `debug`, `breakpoint` and `continue` answer INVALID_ARGUMENT (`...: Value error, <said>`) is
    refused by the model itself, so the session holds no spec the tools would not have taken."""
    with pytest.raises(ValidationError) as refused:
        BreakpointSpec(**given)
    assert [e["msg"] for e in refused.value.errors()] == [f"Value error, {said}"]
    if "exception" not in given:
        with pytest.raises(ValidationError) as refused:
            Location(**given)
        assert [e["msg"] for e in refused.value.errors()] == [f"Value error, {said}"]


def test_a_spec_is_the_same_value_wherever_it_goes():
    """The checks, the session and the registry are all handed the one value the agent sent."""
    spec = BreakpointSpec(file="app.py", line=3, condition="i == 7")
    with pytest.raises(ValidationError):
        spec.condition = "i == 8"  # type: ignore[misc]
    assert spec.kind == "line" and BreakpointSpec(exception="raised").kind == "exception"
    assert BreakpointSpec.at(Location(function="json.loads")) == BreakpointSpec(function="json.loads")


def test_a_change_by_id_keeps_what_it_leaves_out_and_an_empty_option_removes_it(tmp_path):
    program = tmp_path / "app.py"
    program.write_text("total = 0\nfor i in range(10):\n    total += i\n")
    capabilities = {"supportsConditionalBreakpoints": True, "supportsHitConditionalBreakpoints": True,
                    "supportsLogPoints": True}  # as debugpy's `initialize` answers
    registry = BreakpointRegistry(DEBUGPY, [], capabilities=lambda: capabilities)
    bp = registry.register(BreakpointSpec(file=str(program), line=3, condition="i > 2"), None)

    registry.change(bp.id, BreakpointChange(enabled=False))
    assert (bp.options.condition, bp.options.enabled) == ("i > 2", False)
    registry.change(bp.id, BreakpointChange(condition="", hitCondition="% 2"))
    assert (bp.options.condition, bp.options.hitCondition, bp.options.enabled) == (None, "% 2", False)
    registry.change(bp.id, BreakpointChange(logMessage="i={i}", maxNotifications=3, enabled=True))
    options = bp.options
    assert (options.logMessage, options.maxNotifications, options.hitCondition, options.enabled) == ("i={i}", 3, "% 2", True)
    registry.change(bp.id, BreakpointChange(hitCondition=""))
    assert (bp.options.logMessage, bp.options.maxNotifications, bp.options.hitCondition) == ("i={i}", 3, None)


def test_the_spec_lists_its_fields_where_the_tools_schema_always_had_them():
    """The spec is built of the options' declaration and its place's; the schema an agent reads is as it was."""
    assert list(BreakpointSpec.model_fields) == [
        "file", "line", "text", "function", "exception", "exceptionTypes", "watch", "access",
        "condition", "hitCondition", "logMessage", "maxNotifications", "enabled"]
    assert BreakpointSpec(file="app.py", line=3, condition="").over() == BreakpointOptions(enabled=True)


def test_one_function_gives_each_kind_of_breakpoint_its_dap_form():
    lldb = PROFILES["lldb"]
    traced = BreakpointOptions(condition="i > 2", hitCondition=">= 2", logMessage="i {i}").over()
    assert dap_form(Breakpoint(id=4, file="/x/app.c", line=3, options=traced), lldb, tag="<4>") == {
        "line": 3, "hitCondition": "2", "condition": "i > 2", "logMessage": "<4>i {i}"}  # lldb-dap reads a bare N as ">= N"
    watched = BreakpointOptions(condition="total > 3").over()
    assert dap_form(Breakpoint(id=5, kind="watch", watch="total", data_id="0x10/4", access="read", options=watched),
                    lldb) == {"dataId": "0x10/4", "accessType": "read", "condition": "total > 3"}
    assert dap_form(Breakpoint(id=6, kind="function", function="json.loads"), DEBUGPY,
                    place=FunctionPlace("loads")) == {"name": "loads"}
    assert dap_form(Breakpoint(id=7, kind="function", function="gen"), DEBUGPY,
                    place=FunctionPlace("gen", "/x/gen.py", 7, "first")) == {"line": 7, "condition": "first"}
