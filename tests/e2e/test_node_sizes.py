"""What a Node stop costs an agent in bytes (issue 35 point 9): a library's closures hold each of its functions
with its source (lodash: two `Closure` scopes of 50 sources, 29 KB a step into it), so they are named and listed
on request, like Python's module globals; `info sources` pages, the program's own files first."""

from __future__ import annotations

import json

from conftest import Tools, locals_of, stdio_tools

LIBRARY = "\n".join([
    "const helpers = {};",
    *(f"function helper{i}(x) {{ /* {'some source text ' * 6} */ return x + {i}; }}" for i in range(60)),
    "function sum(values) {",
    f"  const steps = [{', '.join(f'helper{i}' for i in range(60))}];  // V8 keeps what a closure uses",
    "  let total = 0;",
    "  for (const v of values) total = steps[v](total);",
    "  return total;",
    "}",
    "module.exports = { sum };",
])

PROGRAM = "\n".join([
    "const big = require('./node_modules/biglib');",
    "const rows = [1, 2, 3];",
    "function outer() {",
    "  let count = 0;",
    "  return rows.map((r) => {",
    "    count += r;",
    "    return count;  // inside the callback",
    "  });",
    "}",
    "const counts = outer();",
    "console.log(counts, big.sum(rows));",
])


def size(answer: dict[str, object]) -> int:
    return len(json.dumps(answer, separators=(",", ":")))


def scope(answer: dict[str, object], name: str) -> list[dict[str, object]]:
    return [s for s in answer["scopes"] if s["name"] == name]


async def start(tools: Tools, tmp_path, line: int) -> dict[str, object]:
    (tmp_path / "node_modules" / "biglib").mkdir(parents=True)
    (tmp_path / "node_modules" / "biglib" / "index.js").write_text(LIBRARY + "\n")
    (tmp_path / "app.js").write_text(PROGRAM + "\n")
    return await tools.ok("debug", mode="source", path=str(tmp_path / "app.js"), justMyCode=False,
                          breakpoints=[{"file": str(tmp_path / "app.js"), "line": line}])


async def test_a_libraries_closures_are_named_and_listed_on_request(tmp_path):
    async with stdio_tools() as tools:
        stop = await start(tools, tmp_path, 11)
        inside = await tools.ok("step", mode="in")
        assert inside["location"]["file"].endswith("biglib/index.js"), inside
        closures = [s for s in inside["scopes"] if s["name"].startswith("Closure")]
        assert closures and all(s.get("expensive") and not s["variables"] for s in closures), inside["scopes"]
        assert size(inside) < 4000, size(inside)  # was 21 KB: 60 functions' sources
        asked = await tools.ok("context", scopes=["closure"])
        listed = [s for s in asked["scopes"] if s["name"] == "Closure"]
        assert listed[0]["variables"][0]["name"] == "helper0" and listed[0]["total"] == 60, asked["scopes"]
        await tools.ok("stop")
    assert stop["state"] == "paused"


async def test_the_programs_own_closures_are_listed_and_its_module_closure_named(tmp_path):
    async with stdio_tools() as tools:
        stop = await start(tools, tmp_path, 7)
        assert stop["location"]["line"] == 7 and locals_of(stop)["r"] == "1", stop
        named = [s["name"] for s in stop["scopes"]]
        inner = scope(stop, "Closure (outer)")
        assert inner and {v["name"] for v in inner[0]["variables"]} == {"count"}, stop["scopes"]
        module = [s for s in stop["scopes"] if s["name"] == "Closure"]  # the CommonJS wrapper: rows, big, require, …
        assert module and module[-1].get("expensive") and not module[-1]["variables"], named
        await tools.ok("stop")


async def test_info_sources_lists_the_programs_own_files_first_and_pages(tmp_path):
    async with stdio_tools() as tools:
        await start(tools, tmp_path, 7)
        first = await tools.ok("info", type="sources", limit=2)
        assert [i["path"] for i in first["items"]][:1] == [str(tmp_path / "app.js")], first
        assert first["truncated"] and first["nextOffset"] == 2 and first["total"] > 2, first
        items, rest = first["items"], first
        while "nextOffset" in rest:  # at most 200 a page
            rest = await tools.ok("info", type="sources", offset=rest["nextOffset"], limit=200)
            items += rest["items"]
        paths = [i["path"] for i in items]
        assert len(paths) == first["total"] and not rest["truncated"], rest
        assert any(str(p).startswith("<node_internals>") for p in paths), paths[:5]
        await tools.ok("stop")
