"""How much text an agent reads: tools/list, and the largest answers of the tools that can grow (issue 38 points 3, 6).

Run:  .venv/bin/python bench/answer_sizes.py [--json FILE]

A real MCP client over stdio lists the tools and prints the bytes of the JSON it received: all of it,
the descriptions and input schemas (what a model reads), and the output schemas. Then it asks each tool
that can answer a lot for as much as its schema allows, on real adapters, and prints the bytes of the
answer's text content (UTF-8, what the model reads), and whether the answer says there is more:

  context, the most maxFrames  deep_crash.c 500 calls deep, under gdb and lldb; recursion.py's RecursionError
  snapshot_diff               rows.py's 50,000 CSV rows captured at depth 3 against depth 0, both formats
  snapshot_export             the same depth-3 snapshot (about 4 MB), the first page
  info sources / modules      the most `limit` allows, on rows.py under debugpy
  output                      flood.py's 100 MB, the most `limit` allows
  memory                      4096 bytes of ledger.c's stack under gdb
  step in, library code       uses_library.py into json.loads (debugpy); node_library.js into commander, whose
                              module closures a Node stop in a library shows (js-debug)
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import sys
from datetime import UTC
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from benchkit import kill_leftovers, machine, marked_line, write_json

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "tests" / "programs"
BOUND = 32 * 1024
"""The most text one answer may hold (issue 38 point 3)."""
READ_BOUND = 20 * 1024
"""The most the descriptions and input schemas of tools/list may hold (issue 38 point 6)."""


def compact(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


async def tools_list(client: Client) -> dict[str, int]:
    listed = await client.list_tools()
    tools = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in listed.tools]
    read = sum(compact(t.get("description", "")) + compact(t["inputSchema"]) for t in tools)
    return {"tools": len(tools), "whole": compact({"tools": tools}), "descriptions_and_input_schemas": read,
            "descriptions": sum(compact(t.get("description", "")) for t in tools),
            "output_schemas": sum(compact(t.get("outputSchema", {})) for t in tools),
            "largest_read": max((compact(t.get("description", "")) + compact(t["inputSchema"]), t["name"]) for t in tools)}


class Sizes:
    def __init__(self, client: Client) -> None:
        self.client = client
        self.rows: list[dict[str, Any]] = []

    async def call(self, name: str, label: str, **arguments: Any) -> dict[str, Any]:
        result = await self.client.call_tool(name, arguments)
        data = result.structured_content or {}
        if label:
            size = len(result.content[0].text.encode())
            more = {key: data[key] for key in ("truncated", "framesTruncated", "nextOffset", "omitted", "end",
                                               "totalFrames", "total", "framesNext") if key in data}
            self.rows.append({"answer": label, "bytes": size, "over": size > BOUND, "says": more})
            print(f"{label:<58} {size:>8,} bytes  {'OVER' if size > BOUND else 'ok  '}  {json.dumps(more)[:90]}",
                  flush=True)
        if not data.get("success", True):
            print(f"  {name} failed: {data.get('error')}", file=sys.stderr)
        return data


async def measure() -> dict[str, Any]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "dap2mcp", "serve"], cwd=str(ROOT))
    async with Client(params) as client:
        listing = await tools_list(client)
        print(f"tools/list: {listing['whole']:,} bytes; descriptions + input schemas {listing['descriptions_and_input_schemas']:,} "
              f"(descriptions {listing['descriptions']:,}); output schemas {listing['output_schemas']:,}; "
              f"largest {listing['largest_read']}", flush=True)
        sizes = Sizes(client)
        deep = PROGRAMS / "deep_crash.c"
        for adapter in ("gdb", "lldb"):
            await sizes.call("debug", "", mode="source", path=str(deep), adapter=adapter)
            await sizes.call("context", f"context maxFrames=200 (the most), 502 frames ({adapter})", maxFrames=200)
            await sizes.call("stop", "")
        recursion = PROGRAMS / "recursion.py"
        await sizes.call("debug", "", mode="source", path=str(recursion))
        await sizes.call("context", "context maxFrames=200 (the most), RecursionError (debugpy)", maxFrames=200)
        await sizes.call("stop", "")

        rows = PROGRAMS / "rows.py"
        await sizes.call("debug", "", mode="source", path=str(rows),
                         breakpoints=[{"file": str(rows), "line": marked_line(rows, "marker: loaded")}])
        deep_id = (await sizes.call("snapshot_create", "", depth=3))["snapshot"]["id"]
        shallow_id = (await sizes.call("snapshot_create", "", depth=0))["snapshot"]["id"]
        for form in ("variables", "pact"):
            await sizes.call("snapshot_diff", f"snapshot_diff depth 3 vs 0 of 50,000 rows ({form})",
                             snapshot_id_1=deep_id, snapshot_id_2=shallow_id, format=form)
        await sizes.call("snapshot_export", "snapshot_export of 50,000 rows at depth 3, first page",
                         snapshot_id=deep_id)
        for kind in ("sources", "modules"):
            await sizes.call("info", f"info {kind}, the most `limit` allows (debugpy)", type=kind, limit=200)
        await sizes.call("stop", "")

        texts = PROGRAMS / "long_texts.py"
        await sizes.call("debug", "", mode="source", path=str(texts),
                         breakpoints=[{"file": str(texts), "line": marked_line(texts, "marker: held")}])
        deep_id = (await sizes.call("snapshot_create", "", depth=1))["snapshot"]["id"]
        shallow_id = (await sizes.call("snapshot_create", "", depth=0))["snapshot"]["id"]
        await sizes.call("snapshot_diff", "snapshot_diff of 100 strings of 1,000 characters",
                         snapshot_id_1=deep_id, snapshot_id_2=shallow_id)
        await sizes.call("stop", "")

        flood = PROGRAMS / "flood.py"
        await sizes.call("debug", "", mode="source", path=str(flood),
                         breakpoints=[{"file": str(flood), "line": marked_line(flood, "marker: held")}])
        await sizes.call("output", "output of 100 MB, the most `limit` allows", limit=30_000)
        await sizes.call("stop", "")

        ledger = PROGRAMS / "ledger.c"
        await sizes.call("debug", "", mode="source", path=str(ledger), adapter="gdb",
                         breakpoints=[{"file": str(ledger), "line": marked_line(ledger, "marker: summed")}])
        await sizes.call("memory", "memory 4096 bytes (gdb)", expression="account", count=4096)
        await sizes.call("stop", "")

        library = PROGRAMS / "uses_library.py"
        await sizes.call("debug", "", mode="source", path=str(library), justMyCode=False,
                         breakpoints=[{"file": str(library), "line": marked_line(library, "marker: loads")}])
        await sizes.call("step", "step in to json.loads, library code (debugpy, justMyCode false)", mode="in")
        await sizes.call("stop", "")

        node = ROOT / "bench" / "programs" / "node_library.js"
        await sizes.call("debug", "", mode="source", path=str(node), justMyCode=False,
                         env={"NODE_PATH": str(ROOT / "tests" / "npm" / "node_modules")},
                         breakpoints=[{"file": str(node), "line": marked_line(node, "marker: option")}])
        await sizes.call("step", "step in to commander's Command.option, its closures (node)", mode="in")
        await sizes.call("stop", "")
    return {"tools_list": listing, "answers": sizes.rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json")
    options = parser.parse_args()
    started = datetime.datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    try:
        figures = asyncio.run(measure())
    finally:
        kill_leftovers()
    write_json(options.json, {"measured": started, "machine": machine("mcp", "debugpy"), **figures})


if __name__ == "__main__":
    main()
