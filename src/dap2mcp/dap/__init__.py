"""The DAP wire: framing, correlation, events, reverse requests, and the bodies read most as types (`bodies`).
Knows nothing of sessions or MCP."""

from .client import DapClient, EventHandler, ReverseHandler
from .errors import AdapterFailure, AdapterGone, AdapterMissing, AdapterRefused, AdapterTimedOut
from .transport import Transport, connect_tcp, spawn_listening, spawn_stdio

__all__ = ["AdapterFailure", "AdapterGone", "AdapterMissing", "AdapterRefused", "AdapterTimedOut", "DapClient", "EventHandler", "ReverseHandler", "Transport", "connect_tcp", "spawn_listening", "spawn_stdio"]
