"""Streamable HTTP at `/mcp`, safe by default.

A debugger runs code in the debuggee on request, so whoever reaches this endpoint can run code
on this machine. Hence: loopback unless told otherwise; no other address without a bearer
token; and `Host` and `Origin` checked, so a web page cannot reach a loopback server through
DNS rebinding. The MCP session itself is the SDK's stateful Streamable HTTP transport, so
notifications (logging, resource updates) reach clients on both protocol versions.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import os
import sys
from typing import Any

from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

from .app import DebugServer

TOKEN_ENV = "DAP2MCP_TOKEN"
PATH = "/mcp"
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


class RefusedToServe(Exception):
    """The options would expose the debugger unsafely; the message says what to do instead."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def security(host: str, allowed_hosts: list[str]) -> TransportSecuritySettings:
    """Which `Host` and `Origin` values to accept: loopback names, the bound address, and any the
    user named. A wildcard bind without named hosts accepts any `Host` (the token guards it)."""
    wildcard = host in ("0.0.0.0", "::", "")
    if wildcard and not allowed_hosts:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    bound = f"[{host}]" if ":" in host else host
    names = list(dict.fromkeys([*LOOPBACK_NAMES, *([] if wildcard else [bound]), *allowed_hosts]))
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{name}:*" for name in names] + names,
        allowed_origins=[f"{scheme}://{name}:*" for name in names for scheme in ("http", "https")]
        + [f"{scheme}://{name}" for name in names for scheme in ("http", "https")],
    )


class BearerToken:
    """Every HTTP request must carry `Authorization: Bearer <token>`; others get 401."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                body = json.dumps({"error": "unauthorized",
                                   "message": "this dap2mcp server needs 'Authorization: Bearer <token>'"}).encode()
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(server: DebugServer, *, host: str, token: str | None, allowed_hosts: list[str]) -> ASGIApp:
    if not token and not is_loopback(host):
        raise RefusedToServe(
            f"refusing to serve on {host}, which is not a loopback address, without a token: anyone who reaches "
            f"the port could run code through the debugger. Pass --token or set {TOKEN_ENV}, or bind 127.0.0.1")
    app: ASGIApp = server.streamable_http_app(streamable_http_path=PATH, host=host,
                                              transport_security=security(host, allowed_hosts))
    return BearerToken(app, token) if token else app


def serve_http(server: DebugServer, *, host: str, port: int, token: str | None,
               allowed_hosts: list[str]) -> None:
    import uvicorn

    token = token or os.environ.get(TOKEN_ENV) or None
    app = http_app(server, host=host, token=token, allowed_hosts=allowed_hosts)
    config: dict[str, Any] = {"host": host.strip("[]"), "port": port, "log_level": "warning", "lifespan": "on",
                              "access_log": False}
    shown = f"[{host}]" if ":" in host else host
    print(f"dap2mcp: serving MCP at http://{shown}:{port}{PATH}" + (" (bearer token required)" if token else ""),
          file=sys.stderr, flush=True)
    uvicorn.Server(uvicorn.Config(app, **config)).run()
