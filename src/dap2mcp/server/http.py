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
import logging
import os
import signal
import sys
from typing import Any

from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send

from .app import DebugServer

TOKEN_ENV = "DAP2MCP_TOKEN"
PATH = "/mcp"
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


class ClientLeft(logging.Filter):
    """A client that hangs up while sending a request is no server error, though the SDK logs it as one,
    with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], ClientDisconnect))


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


class LowerCaseNames:
    """Host names are case-insensitive, the SDK's `Host` and `Origin` checks are not: `Debug.Internal`
    must pass where `debug.internal` does."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = [(name, value.lower() if name in (b"host", b"origin") else value)
                       for name, value in scope.get("headers") or []]
            scope = {**scope, "headers": headers}
        await self.app(scope, receive, send)


class BearerToken:
    """Every HTTP request must carry `Authorization: Bearer <token>` (the scheme in any case); others get 401."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            scheme, _, given = dict(scope.get("headers") or []).get(b"authorization", b"").partition(b" ")
            if not (scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self._expected)):
                body = json.dumps({"error": "unauthorized",
                                   "message": "this dap2mcp server needs 'Authorization: Bearer <token>'"}).encode()
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def http_app(server: DebugServer, *, host: str, token: str | None, allowed_hosts: list[str]) -> ASGIApp:
    host, allowed_hosts = host.strip("[]"), [name.lower() for name in allowed_hosts]
    if not token and not is_loopback(host):
        raise RefusedToServe(
            f"refusing to serve on {host}, which is not a loopback address, without a token: anyone who reaches "
            f"the port could run code through the debugger. Pass --token or set {TOKEN_ENV}, or bind 127.0.0.1")
    app: ASGIApp = LowerCaseNames(server.streamable_http_app(streamable_http_path=PATH, host=host,
                                                             transport_security=security(host.lower(), allowed_hosts)))
    return BearerToken(app, token) if token else app


def serve_http(server: DebugServer, *, host: str, port: int, token: str | None,
               allowed_hosts: list[str]) -> None:
    import uvicorn

    token = token or os.environ.get(TOKEN_ENV) or None
    host = host.strip("[]")
    app = http_app(server, host=host, token=token, allowed_hosts=allowed_hosts)
    config: dict[str, Any] = {"host": host, "port": port, "log_level": "warning", "lifespan": "on",
                              "access_log": False}

    class Announcing(uvicorn.Server):
        """Says where it serves once it does: after the bind (which can fail), with the port it got (for 0)."""

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started and self.servers and self.servers[0].sockets:
                port = self.servers[0].sockets[0].getsockname()[1]
                shown = f"[{host}]" if ":" in host else host
                print(f"dap2mcp: serving MCP at http://{shown}:{port}{PATH}" + (" (bearer token required)" if token else ""),
                      file=sys.stderr, flush=True)

    logging.getLogger("mcp.server.streamable_http").addFilter(ClientLeft())
    # uvicorn ends gracefully on SIGINT and SIGTERM only; a hang-up ends the session the same way
    signal.signal(signal.SIGHUP, lambda *_: os.kill(os.getpid(), signal.SIGTERM))
    Announcing(uvicorn.Config(app, **config)).run()
