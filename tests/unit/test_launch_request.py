"""`debug`'s arguments as one typed request (session/program/launch_request.py): the tool's input schema is the
request's fields (server/binding.py spreads them), what the arguments say together is refused in one place, and
the request becomes the adapter's `Target`."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from dap2mcp.errors import DebugError, ErrorCode
from dap2mcp.server.app import build_server
from dap2mcp.session.program.launch_request import LaunchRequest


async def test_the_debug_tools_arguments_are_the_requests_fields_and_its_wait():
    tools = {tool.name: tool for tool in await build_server().list_tools()}
    schema = tools["debug"].input_schema
    assert list(schema["properties"]) == [*LaunchRequest.model_fields, "timeout"]
    assert schema["required"] == ["mode"]
    assert schema["properties"]["processId"]["exclusiveMinimum"] == 0  # the field's bounds go with it
    assert "Cargo project's binary" in schema["properties"]["bin"]["description"]


@pytest.mark.parametrize(("arguments", "refusal"), [
    ({"mode": "source", "test": "x", "path": "a.py"}, "test is for mode 'test'"),
    ({"mode": "test", "bin": "server"}, "bin is for mode 'source'"),
    ({"mode": "test", "module": "pytest"}, "not module"),
    ({"mode": "attach"}, "mode 'attach' needs processId"),
    ({"mode": "connect"}, "mode 'connect' needs address"),
    ({"mode": "connect", "address": "localhost"}, "address must be host:port"),
    ({"mode": "connect", "address": "h:70000"}, "address must be host:port"),
    ({"mode": "binary"}, "mode 'binary' needs path (or module; for Java, mainClass)"),
    ({"mode": "source", "path": "a.py", "module": "m"}, "give path or module, not both"),
    ({"mode": "source", "path": "-m"}, "names no module"),
    ({"mode": "source", "module": "pytest -x"}, "is not a module name"),
])
def test_arguments_that_do_not_go_together_are_refused_with_what_goes(arguments, refusal):
    with pytest.raises(DebugError) as refused:
        LaunchRequest(**arguments).target()
    assert refused.value.code == ErrorCode.INVALID_ARGUMENT and refusal in refused.value.message


def test_a_request_becomes_the_adapters_target():
    target = LaunchRequest(mode="source", path="-m pytest tests -x", args=["-q"], env={"A": "1"},
                           stopOnEntry=True, justMyCode=False).target()
    assert (target.mode, target.path, target.module, target.args) == ("source", None, "pytest", ("tests", "-x", "-q"))
    assert (target.env, target.stop_on_entry, target.just_my_code) == ({"A": "1"}, True, False)
    tests = LaunchRequest(mode="test", test="totals", args=["-x"]).target()
    assert (tests.path, tests.test, tests.args) == (".", "totals", ("-x",))
    connect = LaunchRequest(mode="connect", address="[::1]:5678", path="app.py").target()
    assert (connect.address, connect.stop_on_entry) == (("::1", 5678), False)
    attach = LaunchRequest(mode="attach", processId=42, env={"IGNORED": "1"}).target()
    assert (attach.process_id, attach.env) == (42, {})  # an attached process has its own environment
    mapped = LaunchRequest(mode="connect", address="h:1", pathMappings=[{"local": "/here", "remote": "/there"}]).target()
    assert mapped.path_mappings == (("/here", "/there"),)


def test_an_unknown_argument_is_no_part_of_a_request():
    with pytest.raises(ValidationError):
        LaunchRequest(mode="source", path="a.py", stop_on_entry=True)
