"""`dap2mcp serve` with the stop read-ahead off (debugpy's `steady_ids` unset): each stop's stack,
scopes and variables are asked for one round trip after another, as before the read-ahead.

Run by bench/step_latency.py as the server of the `mcp-wire-plain` variant, so the read-ahead's
effect is measured side by side with it on, in one run.
"""

from __future__ import annotations

import dataclasses
import sys

from dap2mcp.adapters.python import DEBUGPY
from dap2mcp.cli import main

if __name__ == "__main__":
    # a frozen profile, changed for this process only
    object.__setattr__(DEBUGPY, "stops", dataclasses.replace(DEBUGPY.stops, steady_ids=False))
    sys.argv = ["dap2mcp", "serve"]
    sys.exit(main())
