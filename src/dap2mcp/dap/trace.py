"""An optional record of every DAP message, for bug reports about an adapter and for the tests
that check what dap2mcp sends against the DAP schema.

Set `DAP2MCP_DAP_TRACE` to a file path and each message is appended to it as one JSON line:
`{"dir": "sent" | "received" | "closed", "link": N, "message": {...}}`, N numbering the connections to
adapters in the order they were opened (a program with child processes has one per process), and "closed"
giving the reason a connection ended.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable
from typing import Any

TRACE_ENV = "DAP2MCP_DAP_TRACE"

Trace = Callable[[str, dict[str, Any]], None]

_links = itertools.count(1)


def from_environment() -> Trace | None:
    """A recorder for one new connection, if the environment asks for a trace."""
    path = os.environ.get(TRACE_ENV)
    if not path:
        return None
    link = next(_links)

    def record(direction: str, message: dict[str, Any]) -> None:
        line = json.dumps({"dir": direction, "link": link, "message": message}, ensure_ascii=False)
        with open(path, "a", encoding="utf-8") as out:  # one write per line: processes may share the file
            out.write(line + "\n")

    return record
