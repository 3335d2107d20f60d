"""The workflow prompts name only tools and arguments the server has: each call a prompt writes, in the
notation of server/prompts.py (`tool {"argument": value}`), is read back and checked against tools/list."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from dap2mcp.server.app import build_server

CALL = re.compile(r"`([a-z_-]+) (\{[^`]*\})`")
HOLE = re.compile(r"<[^<>\"`]*>")

SAMPLES = {  # each prompt's arguments as an agent gives them: all, and the required ones alone
    "debug-failing-test": [{"test": "tests/test_totals.py::test_sum"}, {"test": "t.py::test_a", "cwd": "/srv/app"}],
    "diagnose-crash": [{"program": "crash.c"}, {"program": "./server", "args": "--port 80 -v"},
                       {"program": "./server", "core": "core.4242"}],
    "find-who-changed": [{"program": "ledger.c", "variable": "book.total"},
                         {"program": "ticker.go", "variable": "items[3]", "function": "tick"}],
    "attach-to-service": [{}, {"processId": "4242", "file": "app/views.py", "line": "31"},
                          {"address": "127.0.0.1:5678", "file": "app/views.py"}],
    "compare-runs": [{"program": "calc.py", "file": "calc.py", "line": "12"},
                     {"program": "calc.py", "file": "calc.py", "line": "x", "workingArgs": "1 2", "brokenArgs": "1 0"}],
}


def calls(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The calls a prompt's text names, with each `<hole>` read as null."""
    return [(tool, json.loads(HOLE.sub("null", body))) for tool, body in CALL.findall(text)]


def schema_at(schema: dict[str, Any], node: dict[str, Any]) -> list[dict[str, Any]]:
    """The object schemas `node` may be (through $ref, anyOf and array items)."""
    if "$ref" in node:
        return schema_at(schema, schema["$defs"][node["$ref"].rsplit("/", 1)[-1]])
    found = [node] if node.get("type") == "object" or "properties" in node else []
    for option in node.get("anyOf", []) + node.get("allOf", []):
        found += schema_at(schema, option)
    if "items" in node:
        found += schema_at(schema, node["items"])
    return found


def enums_at(schema: dict[str, Any], node: dict[str, Any]) -> list[Any] | None:
    if "$ref" in node:
        return enums_at(schema, schema["$defs"][node["$ref"].rsplit("/", 1)[-1]])
    if "enum" in node:
        return node["enum"]
    if "const" in node:
        return [node["const"]]
    options = [enums_at(schema, option) for option in node.get("anyOf", []) if option.get("type") != "null"]
    return options[0] if len(options) == 1 else None


def problems(schema: dict[str, Any], node: dict[str, Any], value: Any, where: str) -> list[str]:
    """Every argument in `value` that the schema `node` has no place for, or a literal it does not allow."""
    found: list[str] = []
    if isinstance(value, list):
        for index, item in enumerate(value):
            found += problems(schema, node, item, f"{where}[{index}]")
        return found
    if isinstance(value, str) and (allowed := enums_at(schema, node)) is not None and value not in allowed:
        return [f"{where}: {value!r} is not one of {allowed}"]
    if not isinstance(value, dict):
        return []
    shapes = schema_at(schema, node)
    properties = {key: prop for shape in shapes for key, prop in (shape.get("properties") or {}).items()}
    for key, item in value.items():
        if key not in properties:
            found.append(f"{where}: no argument {key!r} (has {sorted(properties)})")
        elif item is not None:
            found += problems(schema, properties[key], item, f"{where}.{key}")
    return found


async def test_every_call_a_prompt_names_exists() -> None:
    server = build_server()
    tools = {tool.name: tool.input_schema for tool in await server.list_tools()}
    listed = {prompt.name: prompt for prompt in await server.list_prompts()}
    assert set(listed) == set(SAMPLES)
    for name, samples in SAMPLES.items():
        required = {arg.name for arg in listed[name].arguments or [] if arg.required}
        assert listed[name].description and all(arg.description for arg in listed[name].arguments or [])
        for arguments in samples:
            assert required <= set(arguments), (name, arguments)
            result = await server.get_prompt(name, arguments)
            text = "\n".join(message.content.text for message in result.messages)
            named = calls(text)
            assert len(named) >= 4, text
            for span in re.findall(r"`([^`]*)`", text):  # a call written wrong is no call to the regex: find it
                assert span.split(" ")[0] not in tools or CALL.fullmatch(f"`{span}`"), (name, span)
            for tool, args in named:
                assert tool in tools, f"{name} names a tool {tool!r} the server does not have"
                assert not (found := problems(tools[tool], tools[tool], args, tool)), (name, found)
            for value in arguments.values():  # what the agent gave is in the calls, not left for it to retype
                if value and value != "x":
                    assert value.split()[0] in text, (name, value)


@pytest.mark.parametrize("text, expected", [
    ('`breakpoint {"file": <file>, "line": 3}`', [("breakpoint", {"file": None, "line": 3})]),
    ('see `reason`, then `continue {}`', [("continue", {})]),
])
def test_calls_are_read_back(text: str, expected: list[tuple[str, dict[str, Any]]]) -> None:
    assert calls(text) == expected


def test_a_misnamed_argument_is_found() -> None:
    schema = {"properties": {"breakpoints": {"type": "array", "items": {"$ref": "#/$defs/Spec"}}, "mode": {"enum": ["a"]}},
              "$defs": {"Spec": {"type": "object", "properties": {"file": {}, "line": {}}}}}
    assert problems(schema, schema, {"breakpoints": [{"file": "x", "lines": 3}]}, "debug") \
        == ["debug.breakpoints[0]: no argument 'lines' (has ['file', 'line'])"]
    assert problems(schema, schema, {"mode": "b"}, "debug") == ["debug.mode: 'b' is not one of ['a']"]


async def test_diagnose_crash_with_a_core_opens_the_core_and_never_runs_the_program() -> None:
    result = await build_server().get_prompt("diagnose-crash", {"program": "./server", "core": "core.4242"})
    named = calls("\n".join(message.content.text for message in result.messages))
    assert named[0] == ("debug", {"mode": "core", "path": "./server", "core": "core.4242"}), named
    assert not {tool for tool, _ in named} & {"restart", "continue", "step", "breakpoint"}, named
