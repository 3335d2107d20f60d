"""MCP: tools and transports. Thin: parse, call the debugger, shape the result."""

from .app import DebugServer, build_server

__all__ = ["DebugServer", "build_server"]
