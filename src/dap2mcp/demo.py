"""`dap2mcp demo`: a real MCP client session against `dap2mcp serve`, hunting the example's bug.

It spawns the server over stdio exactly as an MCP client (Claude Code, VS Code) would, and
prints every tool call and the essence of each answer.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "python" / "invoice.py"


def marker_line(path: Path, marker: str) -> int:
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if f"# marker: {marker}" in text:
            return number
    raise LookupError(f"no '# marker: {marker}' in {path}")


def _locals(result: dict[str, Any]) -> str:
    for scope in result.get("scopes") or []:
        if scope["name"] == "Locals":
            shown = [f"{v['name']}={v['value']}" for v in scope["variables"] if not v["name"].startswith("special")]
            return ", ".join(shown)
    return ""


def _summary(name: str, result: dict[str, Any]) -> str:
    if not result.get("success"):
        return f"error {result['error']['code']}: {result['error']['message']}"
    if "state" in result and name != "stop":
        loc = result.get("location") or {}
        where = f"{Path(loc['file']).name}:{loc['line']} in {loc['function']}()" if loc.get("file") else ""
        parts = [result["state"], result.get("reason") or "", where]
        if result.get("exitCode") is not None:
            parts.append(f"exit code {result['exitCode']}")
        text = " ".join(p for p in parts if p)
        if result.get("scopes"):
            text += f"\n      locals: {_locals(result)}"
        if result.get("output"):
            text += f"\n      output: {result['output']['text'].strip()!r}"
        return text
    return json.dumps({k: v for k, v in result.items() if k != "success"})


async def _session(example: Path, quiet: bool) -> int:
    params = StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve"])
    calls = 0

    async def call(name: str, arguments: dict[str, Any], why: str) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        result = (await client.call_tool(name, arguments)).structured_content or {}
        if not quiet:
            print(f"\n# {why}\n> {name} {json.dumps(arguments)}\n  {_summary(name, result)}")
        return result

    async with Client(params) as client:
        tools = await client.list_tools()
        print(f"connected to dap2mcp over stdio: {len(tools.tools)} tools")
        loop = marker_line(example, "loop")
        first = await call("debug", {"mode": "source", "path": str(example),
                                     "breakpoints": [{"file": str(example), "line": loop}]},
                           "Start the program with a breakpoint in the invoice loop")
        if first.get("state") != "paused":
            print("demo: the program did not stop at the breakpoint", file=sys.stderr)
            return 1
        await call("step", {"mode": "in"}, "Step into line_total() for the first item")
        await call("step", {"mode": "out"}, "Step back out to the loop")
        await call("step", {"mode": "over"}, "Next line: add the subtotal")
        await call("step", {"mode": "over"}, "Next line: apply the discount")
        after = await call("step", {"mode": "over"}, "Back at the loop head: the running total was discounted")
        discounted = await call("evaluate", {"expression": "total"}, "10.00 of goods so far, but the total says 9.0")
        await call("continue", {}, "Run to the loop breakpoint for the next item")
        await call("set-variable", {"name": "total", "value": "10.0"}, "Test the theory: undo that discount by hand")
        await call("set-variable", {"name": "discount_percent", "value": "0"}, "... and keep the loop from discounting")
        await call("clear-breakpoints", {"all": True}, "Drop the breakpoint")
        end = await call("continue", {"to": {"file": str(example), "line": marker_line(example, "print")}},
                         "Run to the print, with a temporary breakpoint: the total is now the undiscounted sum")
        once = await call("evaluate", {"expression": "round(total * (1 - discount / 100), 2)"},
                          "Discount once, after the loop")
        expected = await call("evaluate", {"expression": "round(sum(i['price'] * i['qty'] for i in items) "
                                                         "* (1 - discount / 100), 2)"}, "What the invoice should say")
        plain = await call("restart", {"args": ["0"]}, "Restart with no discount: the program's own check passes")
        await call("stop", {}, "End the session")
        found = (after.get("state") == "paused" and end.get("state") == "paused" and discounted.get("value") != "10.0"
                 and once.get("value") is not None and once.get("value") == expected.get("value")
                 and plain.get("exitCode") == 0)
        if found:
            print(f"\ndemo finished: {calls} tool calls, bug found: invoice_total() applies the discount on every pass "
                  f"of its loop ({example.name}:{loop + 2}); applied once after the loop the total is "
                  f"{once['value']}, as expected")
        else:
            print(f"\ndemo finished: {calls} tool calls, but the answers did not show the bug as expected", file=sys.stderr)
        return 0 if found else 1


def run_demo(*, quiet: bool = False, example: Path = EXAMPLE) -> int:
    if not example.is_file():
        print(f"demo: example not found at {example} (run from a checkout of dap2mcp)", file=sys.stderr)
        return 2
    return asyncio.run(_session(example, quiet))
