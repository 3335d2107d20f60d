"""Checks every message the tests see against the protocol schemas in tests/spec: each MCP
message a test's client receives (any transport) against the MCP schema of the negotiated
version, and each DAP message dap2mcp sends to an adapter against the DAP schema.

Problems are collected in `PROBLEMS`; the conftest fails the test that produced any.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft4Validator, Draft202012Validator

ROOT = Path(__file__).resolve().parents[1]
SPEC = Path(os.environ.get("DAP2MCP_SPEC_DIR") or ROOT / "tests" / "spec")
PROBLEMS: list[str] = []
CHECKED = {"mcp": 0, "dap": 0}

RESULTS = {
    "initialize": "InitializeResult", "server/discover": "DiscoverResult", "ping": "EmptyResult",
    "tools/list": "ListToolsResult", "tools/call": "CallToolResult", "prompts/list": "ListPromptsResult", "prompts/get": "GetPromptResult",
    "resources/list": "ListResourcesResult", "resources/templates/list": "ListResourceTemplatesResult",
    "resources/read": "ReadResourceResult", "resources/subscribe": "EmptyResult",
    "resources/unsubscribe": "EmptyResult", "logging/setLevel": "EmptyResult",
    "subscriptions/listen": "SubscriptionsListenResult",
}
ADAPTERS_OWN = {"setDebuggerProperty", "setPydevdSourceMap", "cdt-gdb-tests/executeCommand"}
"""Requests an adapter adds to the protocol (debugpy's, pydevd's debugProtocolCustom.json, cdt-gdb-adapter's one
MI command): checked as requests."""
NOTIFICATIONS = {
    "notifications/message": "LoggingMessageNotification", "notifications/progress": "ProgressNotification",
    "notifications/resources/updated": "ResourceUpdatedNotification",
    "notifications/resources/list_changed": "ResourceListChangedNotification",
    "notifications/tools/list_changed": "ToolListChangedNotification",
    "notifications/subscriptions/acknowledged": "SubscriptionsAcknowledgedNotification",
    "notifications/cancelled": "CancelledNotification",
}


@lru_cache
def _schema(name: str) -> dict[str, Any]:
    path = SPEC / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: the tests check messages against tests/spec "
                                "(or set DAP2MCP_SPEC_DIR)")
    return json.loads(path.read_text())


@lru_cache
def mcp_validator(version: str, definition: str) -> Draft202012Validator:
    defs = _schema(f"mcp-schema-{version}.json")["$defs"]
    if definition not in defs:
        raise KeyError(f"no {definition} in the MCP {version} schema")
    return Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": defs})


@lru_cache
def dap_validator(definition: str) -> Draft4Validator:
    defs = _schema("debugAdapterProtocol.json")["definitions"]
    if definition not in defs:
        raise KeyError(f"no {definition} in the DAP schema")
    return Draft4Validator({"$ref": f"#/definitions/{definition}", "definitions": defs})


def _report(what: str, validator: Any, instance: Any) -> None:
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        PROBLEMS.append(f"{what}: {first.message} at {'/'.join(map(str, first.absolute_path)) or '(top)'}: "
                        f"{json.dumps(instance)[:300]}")


def check_mcp(version: str, method: str | None, message: dict[str, Any]) -> None:
    """One message from the server; `method` is the request's, for a response."""
    CHECKED["mcp"] += 1
    try:
        if "error" in message:
            _report(f"MCP {version} error for {method}", mcp_validator(version, "JSONRPCErrorResponse"), message)
        elif "result" in message:
            if method not in RESULTS:
                PROBLEMS.append(f"MCP {version}: no schema mapped for the result of {method!r}")
                return
            _report(f"MCP {version} result of {method}", mcp_validator(version, RESULTS[method]), message["result"])
        elif "method" in message and "id" not in message:
            name = NOTIFICATIONS.get(message["method"])
            if name is None:
                PROBLEMS.append(f"MCP {version}: no schema mapped for notification {message['method']!r}")
                return
            _report(f"MCP {version} {message['method']}", mcp_validator(version, name), message)
    except KeyError as exc:
        PROBLEMS.append(f"MCP {version}: {exc}")


def check_dap_trace(path: Path) -> None:
    """Every message dap2mcp sent to an adapter, from a DAP2MCP_DAP_TRACE file."""
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["dir"] != "sent":
            continue
        message = record["message"]
        CHECKED["dap"] += 1
        command = str(message.get("command", ""))
        kind = "Request" if message.get("type") == "request" else "Response"
        definition = kind if command in ADAPTERS_OWN else command[:1].upper() + command[1:] + kind
        try:
            _report(f"DAP {definition}", dap_validator(definition), message)
        except KeyError as exc:
            PROBLEMS.append(f"DAP: {exc} (sent {json.dumps(message)[:200]})")


class _Reader:
    """The client transport's read stream, checking each message on its way to the client."""

    def __init__(self, stream: Any, pending: dict[Any, str], version: list[str]) -> None:
        self._stream = stream
        self._pending = pending
        self._version = version

    def _look(self, item: Any) -> Any:
        message = getattr(item, "message", None)
        if message is None:
            return item
        data = message.model_dump(by_alias=True, mode="json", exclude_none=True)
        method = self._pending.pop(data.get("id"), None) if "method" not in data else None
        if method == "initialize" and isinstance(data.get("result"), dict):
            self._version[0] = str(data["result"].get("protocolVersion") or self._version[0])
        if "method" not in data or "id" not in data:  # requests from the server are not ours to check here
            check_mcp(self._version[0], method, data)
        return item

    async def receive(self) -> Any:
        return self._look(await self._stream.receive())

    def __aiter__(self) -> _Reader:
        return self

    async def __anext__(self) -> Any:
        return self._look(await self._stream.__anext__())

    async def aclose(self) -> None:
        await self._stream.aclose()

    async def __aenter__(self) -> _Reader:
        await self._stream.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self._stream.__aexit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Writer:
    """The write stream, noting which method each request id was for."""

    def __init__(self, stream: Any, pending: dict[Any, str]) -> None:
        self._stream = stream
        self._pending = pending

    async def send(self, item: Any, /) -> None:
        message = getattr(item, "message", None)
        if message is not None:
            data = message.model_dump(by_alias=True, mode="json", exclude_none=True)
            if "method" in data and "id" in data:
                self._pending[data["id"]] = data["method"]
        await self._stream.send(item)

    async def aclose(self) -> None:
        await self._stream.aclose()

    async def __aenter__(self) -> _Writer:
        await self._stream.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self._stream.__aexit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@asynccontextmanager
async def checked(transport: Any, mode: str) -> AsyncIterator[tuple[Any, Any]]:
    """Wrap a client transport so every server message is checked against the schema."""
    version = [mode if mode[:2] == "20" else "2026-07-28"]  # "legacy" learns its version from initialize
    pending: dict[Any, str] = {}
    async with transport as (read, write):
        yield _Reader(read, pending, version), _Writer(write, pending)
