"""One debug session and the debugger that holds it. Knows DAP, not MCP."""

from .debugger import Debugger
from .models import Context
from .session import DebugSession

__all__ = ["Context", "DebugSession", "Debugger"]
