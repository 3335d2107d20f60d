"""server.json, the repository's entry for the MCP Registry, is valid against the registry's published schema (a
copy in tests/data/registry, with its licence) and agrees with the package it names: the version and name in
pyproject.toml, and a command that serves MCP on stdio as the entry says."""

from __future__ import annotations

import copy
import importlib
import json
import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "tests" / "data" / "registry" / "server.schema.json").read_text(encoding="utf-8"))
ENTRY = json.loads((ROOT / "server.json").read_text(encoding="utf-8"))
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def is_uri(value: object) -> bool:
    """RFC 3986's absolute URI, as far as a registry entry needs it: a scheme, no spaces or characters a URI never
    holds unescaped, and a host for http(s). jsonschema checks `uri` only with an optional package this project
    does not install, and would otherwise let any text pass."""
    if not isinstance(value, str):
        return True  # formats apply to strings only
    scheme, colon, _ = value.partition(":")
    if not colon or not re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*", scheme) or re.search(r'[\s<>"{}|\\^`]', value):
        return False
    return scheme.lower() not in ("http", "https") or bool(urlsplit(value).netloc)


def validator() -> jsonschema.protocols.Validator:
    """A validator of the draft the schema declares, checking every format the schema uses."""
    cls = jsonschema.validators.validator_for(SCHEMA)
    assert cls is jsonschema.Draft7Validator, f"the schema declares {SCHEMA['$schema']}; this test expects draft 7"
    cls.check_schema(SCHEMA)
    checker = copy.deepcopy(cls.FORMAT_CHECKER)
    if "uri" not in checker.checkers:
        checker.checks("uri")(is_uri)
    used = set(_formats(SCHEMA["definitions"]))
    unchecked = used - set(checker.checkers)
    assert not unchecked, f"the schema uses formats nothing here checks: {sorted(unchecked)}"
    return cls(SCHEMA, format_checker=checker)


def _formats(node: Any) -> list[str]:
    """Every `format` keyword in the schema (a property named `format` in a `properties` map is no keyword)."""
    if isinstance(node, list):
        return [f for item in node for f in _formats(item)]
    if not isinstance(node, dict):
        return []
    found = [node["format"]] if isinstance(node.get("format"), str) else []
    for key, item in node.items():
        if key == "properties":
            found += [f for prop in item.values() for f in _formats(prop)]
        elif key != "format":
            found += _formats(item)
    return found


def errors(entry: dict[str, Any]) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in validator().iter_errors(entry)]


def test_server_json_is_valid_against_the_published_schema() -> None:
    assert ENTRY["$schema"] == SCHEMA["$id"], "server.json names another schema version than the one copied here"
    assert errors(ENTRY) == []


@pytest.mark.parametrize("change", [
    {"$schema": "not a uri"},
    {"name": "dap2mcp"},  # no namespace
    {"description": "x" * 101},
    {"repository": {"url": "https://github.com/x y", "source": "github"}},
    {"packages": [{"registryType": "pypi", "identifier": "dap2mcp", "version": "latest", "transport": {"type": "stdio"}}]},
])
def test_the_validation_refuses_a_wrong_entry(change: dict[str, Any]) -> None:
    assert errors({**ENTRY, **change}), f"{change} passed"


def test_the_uri_check_is_strict() -> None:
    assert is_uri("https://github.com/dap2mcp/dap2mcp") and is_uri("urn:isbn:0451450523")
    for text in ["github.com/dap2mcp", "https://", "https://a b", "://x", "1http://x"]:
        assert not is_uri(text), text


def test_the_entry_names_this_package_at_its_version() -> None:
    (package,) = ENTRY["packages"]
    assert ENTRY["version"] == package["version"] == PROJECT["version"]
    assert package["registryType"] == "pypi" and package["identifier"] == PROJECT["name"]
    assert package["transport"] == {"type": "stdio"}


def test_the_command_the_entry_runs_serves_mcp_on_stdio(monkeypatch: pytest.MonkeyPatch) -> None:
    """`uvx dap2mcp` runs the package's console script of the package's name, with the entry's package
    arguments; that script, given them, serves MCP on stdio (the call that would serve is caught, not made)."""
    (package,) = ENTRY["packages"]
    assert package["runtimeHint"] == "uvx" and "runtimeArguments" not in package
    command = PROJECT["scripts"].get(package["identifier"])
    assert command, f"pyproject.toml has no console script {package['identifier']!r}, which uvx would run"
    module, _, function = command.partition(":")
    main = getattr(importlib.import_module(module), function)
    argv = [arg.get("value") or arg.get("name") for arg in package.get("packageArguments", [])]

    from dap2mcp.server import results, stdio

    served = []
    monkeypatch.setattr("anyio.run", lambda func, *args: served.append(func))
    monkeypatch.setattr(results, "_text_format", results._text_format)  # main sets it; put back after
    assert main(argv) == 0
    assert served == [stdio.serve]


def test_the_readme_claims_the_name_for_pypi() -> None:
    """The registry checks that a PyPI package is the entry's by `mcp-name: NAME` in its description, the README."""
    assert PROJECT["readme"] == "README.md"
    assert f"mcp-name: {ENTRY['name']}" in (ROOT / "README.md").read_text(encoding="utf-8")
