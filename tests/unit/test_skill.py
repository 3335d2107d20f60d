"""The Agent Skill (src/dap2mcp/skill/dap2mcp/SKILL.md) loads as agents load skills, and cannot drift from the
server: its front matter is what agents require, every tool call it writes names a tool and arguments the server
lists, every context field it explains is a field of the context, and `dap2mcp skill` finds it.

The skill writes every tool as a call between backticks, `tool(argument=value, ...)`, with JSON values (`true`,
`{"file": "a.py"}`), `...` for what the agent fills in, and a leading `...` for "the other arguments"; a bare
backticked word is never a tool. That notation is read back here with Python's own parser."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import dap2mcp
from dap2mcp.server.app import build_server
from dap2mcp.session.models import Context
from dap2mcp.skill import NAME, location

SKILL = Path(dap2mcp.__file__).parent / "skill" / NAME / "SKILL.md"
CODE = re.compile(r"`([^`]+)`")
"""Inline code, which may run over a line break."""
CALL = re.compile(r"([a-z][a-z_-]*)\((.*)\)", re.S)
HOLE = object()
"""A value the agent fills in (`...`, or a name): any value the schema takes."""
PLAIN = re.compile(r"^[^\s\[\]{}&*!|>'\"%@`#,?:-][^\n]*$")
"""A YAML plain scalar that reads as the text it is: no indicator first, and (checked apart) no `: ` or ` #`."""


def front_matter(text: str) -> dict[str, Any]:
    """The skill's front matter, read by PyYAML where it is installed, else by `strict_front_matter`."""
    block = _block(text)
    try:
        import yaml
    except ImportError:
        return strict_front_matter(block)
    parsed = yaml.safe_load(block)
    assert isinstance(parsed, dict), f"the front matter is not a mapping: {parsed!r}"
    return parsed


def _block(text: str) -> str:
    lines = text.split("\n")
    assert lines[0] == "---", "SKILL.md must open with '---' on its first line"
    return "\n".join(lines[1:lines.index("---", 1)])


def strict_front_matter(block: str) -> dict[str, str]:
    """`key: plain text` lines, refusing whatever a YAML parser could read otherwise (quotes, block scalars,
    flow collections, a `: ` or ` #` inside a value), so that without PyYAML the test reads what agents read."""
    fields: dict[str, str] = {}
    for line in block.split("\n"):
        key, sep, value = line.partition(": ")
        assert sep and re.fullmatch(r"[a-z][a-z0-9_-]*", key), f"not a `key: value` line: {line!r}"
        assert key not in fields, f"{key} given twice"
        assert PLAIN.match(value) and ": " not in value and " #" not in value, (
            f"{key}'s value is not plain YAML text that a parser reads as it is: {value!r}")
        fields[key] = value.rstrip()
    return fields


def test_the_front_matter_is_what_agents_require() -> None:
    fields = front_matter(SKILL.read_text(encoding="utf-8"))
    assert fields["name"] == SKILL.parent.name == NAME
    assert re.fullmatch(r"[a-z0-9-]{1,64}", fields["name"])
    description = fields["description"]
    assert isinstance(description, str) and description.strip()
    assert len(description) < 1024, f"the description has {len(description)} characters; agents take at most 1024"
    assert not re.search(r"\b(I|you|we)\b", description), "the description is written in the third person"
    assert strict_front_matter(_block(SKILL.read_text(encoding="utf-8"))) == fields


@pytest.mark.parametrize("value", ['"quoted"', "a: b", "text # a comment", "| block", "[a, b]", "- item"])
def test_the_strict_reading_refuses_what_yaml_reads_otherwise(value: str) -> None:
    with pytest.raises(AssertionError):
        strict_front_matter(f"name: x\ndescription: {value}")


def calls(text: str) -> list[tuple[str, dict[str, Any], str]]:
    """Each call the skill writes: its tool, its arguments (holes as HOLE), and its text for messages."""
    found = []
    for code in CODE.findall(text):
        if not re.match(r"[a-z][a-z_-]*\(", code):
            continue
        match = CALL.fullmatch(code)
        assert match, f"`{code}` opens a call and does not close it"
        tool, body = match.groups()
        tree = ast.parse(f"f({body})", mode="eval").body
        assert isinstance(tree, ast.Call)
        assert all(isinstance(arg, ast.Constant) and arg.value is Ellipsis for arg in tree.args), (
            f"`{tool}({body})`: the only positional argument the notation has is `...`")
        found.append((tool, {kw.arg: value(kw.value) for kw in tree.keywords if kw.arg}, f"{tool}({body})"))
    return found


def value(node: ast.expr) -> Any:
    """A call's argument in the skill's notation: JSON's literals, `...` and names as holes."""
    if isinstance(node, ast.Constant):
        return HOLE if node.value is Ellipsis else node.value
    if isinstance(node, ast.Name):
        return {"true": True, "false": False, "null": None}.get(node.id, HOLE)
    if isinstance(node, ast.List):
        return [value(item) for item in node.elts]
    if isinstance(node, ast.Dict):
        assert all(isinstance(key, ast.Constant) and isinstance(key.value, str) for key in node.keys), (
            f"a dict's keys are strings: {ast.unparse(node)}")
        return {key.value: value(item) for key, item in zip(node.keys, node.values, strict=True)}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return -node.operand.value
    raise AssertionError(f"not a value of the notation: {ast.unparse(node)}")


def shapes(schema: dict[str, Any], node: dict[str, Any]) -> list[dict[str, Any]]:
    """Every schema `node` may be, through $ref, anyOf, oneOf and allOf."""
    if "$ref" in node:
        return shapes(schema, schema["$defs"][node["$ref"].rsplit("/", 1)[-1]])
    found = [node]
    for option in node.get("anyOf", []) + node.get("oneOf", []) + node.get("allOf", []):
        found += shapes(schema, option)
    return found


def problems(schema: dict[str, Any], node: dict[str, Any], given: Any, where: str) -> list[str]:
    """What in `given` the schema `node` has no place for: an unknown key, a literal outside an enum, a value of a
    type no alternative takes."""
    if given is HOLE or given is None:
        return []
    options = shapes(schema, node)
    if isinstance(given, dict):
        objects = [o for o in options if o.get("type") == "object" or "properties" in o]
        if not objects:
            return [f"{where}: an object where the schema takes none"]
        properties = {key: prop for o in objects for key, prop in (o.get("properties") or {}).items()}
        open_ended = any(o.get("additionalProperties") not in (None, False) or
                         (o.get("type") == "object" and "properties" not in o) for o in objects)
        found = []
        for key, item in given.items():
            if key in properties:
                found += problems(schema, properties[key], item, f"{where}.{key}")
            elif not open_ended:
                found.append(f"{where}: no argument {key!r} (has {sorted(properties)})")
        return found
    if isinstance(given, list):
        items = [o["items"] for o in options if "items" in o]
        if not items:
            return [f"{where}: a list where the schema takes none"]
        return [p for index, item in enumerate(given) for p in problems(schema, items[0], item, f"{where}[{index}]")]
    enums = [o["enum"] for o in options if "enum" in o] + [[o["const"]] for o in options if "const" in o]
    if enums and not any(given in allowed for allowed in enums):
        return [f"{where}: {given!r} is not one of {enums}"]
    kinds = {o["type"] for o in options if isinstance(o.get("type"), str)}
    if kinds and not any(_of_type(given, kind) for kind in kinds):
        return [f"{where}: {given!r} is not of type {sorted(kinds)}"]
    return []


def _of_type(given: Any, kind: str) -> bool:
    if kind == "boolean" or isinstance(given, bool):  # JSON's true is no integer
        return kind == "boolean" and isinstance(given, bool)
    return isinstance(given, {"string": str, "integer": int, "number": (int, float)}.get(kind, ()))


async def test_every_call_the_skill_writes_names_a_tool_and_arguments_the_server_has() -> None:
    tools = {tool.name: tool.input_schema for tool in await build_server().list_tools()}
    written = calls(SKILL.read_text(encoding="utf-8"))
    assert len(written) > 50, "the skill's calls were not found: has the notation changed?"
    found = []
    for tool, arguments, text in written:
        if tool not in tools:
            found.append(f"`{text}`: no tool {tool!r}")
            continue
        found += [f"`{text}`: {p}" for p in problems(tools[tool], tools[tool], arguments, tool)]
    assert not found, "\n".join(found)


def test_the_checks_catch_a_wrong_tool_argument_or_value() -> None:
    schema = {"type": "object", "properties": {
        "mode": {"type": "string", "enum": ["over", "in"]}, "n": {"type": "integer"},
        "to": {"anyOf": [{"$ref": "#/$defs/At"}, {"type": "null"}]}}, "$defs": {
        "At": {"type": "object", "properties": {"file": {"type": "string"}}, "additionalProperties": False}}}
    (_, good, _), = calls('`step(..., mode="over", n=-3, to={"file": ...})`')
    assert good == {"mode": "over", "n": -3, "to": {"file": HOLE}}
    assert problems(schema, schema, good, "step") == []
    for text in ['`step(mode="sideways")`', '`step(count=3)`', '`step(n="three")`', '`step(to={"line": 3})`',
                 "`step(n=true)`"]:
        (_, arguments, _), = calls(text)
        assert problems(schema, schema, arguments, "step"), text


def test_every_context_field_the_skill_explains_is_a_field_of_the_context() -> None:
    section = SKILL.read_text(encoding="utf-8").split("## Reading a context", 1)[1].split("\n## ", 1)[0]
    heads = re.findall(r"^- `(\w+)`", section, flags=re.M)
    assert len(heads) >= 10, "the section's bullets were not found"
    unknown = [head for head in heads if head not in Context.model_fields]
    assert not unknown, f"SKILL.md explains context fields the context does not have: {unknown}"


def test_dap2mcp_skill_prints_the_folder_that_holds_the_skill() -> None:
    source = str(Path(dap2mcp.__file__).resolve().parents[1])  # the sources under test, not another install
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "dap2mcp", "skill"], capture_output=True, text=True, timeout=60,
                          env=env)
    assert done.returncode == 0, done.stderr
    printed = Path(done.stdout.strip())
    assert printed.is_absolute() and printed.name == NAME
    assert (printed / "SKILL.md").read_text(encoding="utf-8") == SKILL.read_text(encoding="utf-8")
    assert printed == location() == SKILL.parent.resolve()
