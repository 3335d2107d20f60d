"""The MCP SDK's private parts dap2mcp relies on, each because the SDK has no public seam for it.

Everything else in dap2mcp uses the SDK's public surface: `MCPServer(tools=...)` and
`Tool.from_function` for the tools, `MCPServer.middleware` for the middleware chain, the public
methods of the low-level `Server` once it is in hand. This is the only module under src/ that
names a private attribute or module of `mcp`; tests/unit/test_sdk_seams.py checks that each name
below still exists with the shape relied on, and that no other module reaches in. Two public names are used in
ways the SDK does not document, and are checked there too: server/binding.py sets a tool's
`fn_metadata.output_model` to None, and server/app.py reads the SDK's "Unknown tool" text
(docs/how-it-is-built.md lists every such reliance).

`MCPServer._lowlevel_server` (`lowlevel`)
    The low-level `Server` that `MCPServer` builds and runs. `MCPServer` hands out parts of it
    (`name`, `middleware`, `session_manager`) but not the server, which dap2mcp needs twice:
    to serve requests `MCPServer`'s constructor takes no handler for (`logging/setLevel`,
    `resources/subscribe`, `resources/unsubscribe`; the SDK's own `MethodBinding` refuses spec
    methods and points to `Server.add_request_handler` for these), and to serve a connection over
    streams of dap2mcp's own (server/stdio.py): `MCPServer.run_stdio_async` takes no streams,
    `Server.run` does. The SDK's in-memory client reaches it the same way (mcp/client/_memory.py).

`Server.create_initialization_options`, replaced on the instance (`advertise_list_changes`)
    The `listChanged` flags of the initialize result come only from the `NotificationOptions`
    passed to this method, and no constructor parameter sets them (the SDK's TODO(L53) in
    lowlevel/server.py). stdio.py could pass them, but the streamable HTTP runner
    (`ServerRunner`) and the in-memory client call it with no arguments, so the instance's method
    is replaced by one that defaults to dap2mcp's options. Relied on: every transport asks the
    instance, and its first parameter is `notification_options`.

`mcp.server._otel.OpenTelemetryMiddleware`
    The span around each request, which the SDK puts in `MCPServer.middleware` (public, and
    documented to be edited). app.py wraps it so that spans are made only while something
    collects them; finding it in the list takes its class, which lives only in a private module.

`ServerSession._connection` (`connection_of`)
    The SDK makes a `ServerSession` per request; what lasts for a client's connection is the
    `Connection` it holds, which the session does not expose (`Connection` itself is public, as
    `mcp.server.context.Context.connection`, but that is not the context `MCPServer` gives
    handlers). dap2mcp keeps per-client state keyed on it: log levels and change notifications.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp.server._otel import OpenTelemetryMiddleware

if TYPE_CHECKING:
    from mcp.server.lowlevel.server import NotificationOptions, Server
    from mcp.server.mcpserver import MCPServer

CHECKED_ON = "2.3.0"
"""The `mcp` version each use above was read against. On another version, re-read each in the SDK's
source (does a public seam exist now? does the private one still do the same?), then change this."""


def lowlevel(server: MCPServer[Any]) -> Server[Any]:
    """The low-level server `server` runs: its public methods add handlers and serve streams."""
    return server._lowlevel_server


def advertise_list_changes(server: MCPServer[Any], options: NotificationOptions) -> None:
    """`options` in the initialize result, whichever transport builds it."""
    low = lowlevel(server)
    build = low.create_initialization_options

    def with_options(notification_options: NotificationOptions | None = None, *args: Any, **kwargs: Any) -> Any:
        return build(notification_options or options, *args, **kwargs)

    low.create_initialization_options = with_options  # type: ignore[method-assign]


def connection_of(session: Any) -> Any:
    """What lasts across a client's requests, where the SDK makes a session object per request;
    None for no session (outside a request)."""
    return getattr(session, "_connection", None)


__all__ = ["CHECKED_ON", "OpenTelemetryMiddleware", "advertise_list_changes", "connection_of", "lowlevel"]
