"""An optional record of every DAP message, for bug reports about an adapter and for the tests
that check what dap2mcp sends against the DAP schema.

Set `DAP2MCP_DAP_TRACE` to a file path and each message is appended to it as one JSON line:
`{"dir": "sent" | "received", "message": {...}}`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

TRACE_ENV = "DAP2MCP_DAP_TRACE"

Trace = Callable[[str, dict[str, Any]], None]


def from_environment() -> Trace | None:
    path = os.environ.get(TRACE_ENV)
    if not path:
        return None

    def record(direction: str, message: dict[str, Any]) -> None:
        with open(path, "a", encoding="utf-8") as out:  # one write per line: processes may share the file
            out.write(json.dumps({"dir": direction, "message": message}, ensure_ascii=False) + "\n")

    return record
