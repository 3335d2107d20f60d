"""No answer holds more than 32 KB of text, and every cut one says how to read the rest (issue 38 point 3); the
descriptions and input schemas of tools/list, what a model reads of it, stay under 20 KB (point 6).

Measured as the client receives them: an answer's text content in UTF-8 bytes, tools/list as compact JSON.
Before: `context {maxFrames: 1000}` 34 to 45 KB, `output {limit: 100000}` 100 KB, a diff of long strings 48 KB,
an export page 59 KB, tools/list's descriptions and input schemas 38 KB (bench/answer_sizes.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import PROGRAMS, Tools, marker, stdio_tools

BOUND = 32 * 1024
READ_BOUND = 20 * 1024
DEEP = PROGRAMS / "deep_crash.c"
LONG_TEXTS = PROGRAMS / "long_texts.py"


async def sized(tools: Tools, tool: str, **arguments: Any) -> dict[str, Any]:
    """The answer, once its text is seen to be within the bound."""
    result = await tools.client.call_tool(tool, arguments)
    size = len(result.content[0].text.encode("utf-8"))
    assert size <= BOUND, f"{tool} {arguments}: {size} bytes of text"
    data = await tools.ok(tool, **arguments)  # again through the checked path: same answer, envelope checked
    return data


def compact(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


async def test_what_a_model_reads_of_tools_list_is_under_20_kb_and_debug_says_which_mode_fits() -> None:
    async with stdio_tools() as tools:
        listed = [tool.model_dump(mode="json", by_alias=True, exclude_none=True)
                  for tool in (await tools.client.list_tools()).tools]
    read = sum(compact(tool["description"]) + compact(tool["inputSchema"]) for tool in listed)
    assert read < READ_BOUND, read  # 37,952 bytes before
    debug = next(tool["description"] for tool in listed if tool["name"] == "debug")
    assert "`source`: a script or source file" in debug and "`binary`: an executable" in debug, debug


async def test_a_500_calls_deep_stack_comes_in_pages_within_the_bound_and_every_frame_is_read() -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(DEEP), adapter="gdb")
        await tools.error("context", "INVALID_ARGUMENT", maxFrames=1000)  # 34 KB of text under gdb before
        functions, offset = [], 0
        while True:
            page = await sized(tools, "context", maxFrames=200, framesOffset=offset)
            functions += [frame["function"] for frame in page["frames"]]
            if "framesNext" not in page:
                break
            assert page["framesTruncated"] is True and page["framesNext"] == offset + len(page["frames"]), page
            offset = page["framesNext"]
        assert functions == ["sum_from"] * 501 + ["main"], (len(functions), functions[-3:])
        assert offset == 400
        await tools.ok("stop")


async def test_output_of_escaped_and_wide_characters_is_paged_by_its_text_and_joins_whole(tmp_path: Path) -> None:
    """30,000 characters of `"`, `\\` and `é` take 2 bytes of text each: the page is cut to fit, and nextOffset
    reads on from where it was cut."""
    program = tmp_path / "wide.py"
    program.write_text("import sys\nsys.stdout.write('\"\\\\é' * 30000)\nsys.stdout.flush()\nprint()  # marker: done\n")
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program),
                       breakpoints=[{"file": str(program), "line": marker(program, "done")}])
        await tools.error("output", "INVALID_ARGUMENT", limit=100_000)
        text, offset = "", 0
        while True:
            page = await sized(tools, "output", offset=offset, limit=30_000)
            assert page["nextOffset"] == offset + len(page["text"]), page["nextOffset"]
            text += page["text"]
            if page["nextOffset"] >= page["end"]:
                break
            assert len(page["text"]) < 30_000  # cut by its text, not by `limit`
            offset = page["nextOffset"]
        assert text == '"\\é' * 30000
        await tools.ok("stop")


async def test_a_diff_of_long_strings_pages_within_the_bound_and_the_pages_hold_every_entry() -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(LONG_TEXTS), breakpoints=[
            {"file": str(LONG_TEXTS), "line": marker(LONG_TEXTS, "held")}])
        deep = (await tools.ok("snapshot_create", depth=1))["snapshot"]["id"]
        shallow = (await tools.ok("snapshot_create", depth=0))["snapshot"]["id"]
        removed, offset, pages = [], 0, 0
        while True:
            page = await sized(tools, "snapshot_diff", snapshot_id_1=deep, snapshot_id_2=shallow, offset=offset)
            removed += page["diff"]["removed"]
            pages += 1
            if "nextOffset" not in page:
                assert "truncated" not in page and "omitted" not in page, page.keys()
                break
            assert page["truncated"] is True and page["omitted"]["removed"] > 0, page["omitted"]
            offset = page["nextOffset"]
        assert pages > 1 and len(removed) == page["diff"]["summary"]["removed"] >= 100
        assert len({entry["path"] for entry in removed}) == len(removed)  # no entry twice
        export, data, offset = None, "", 0
        while True:  # the export's pages fit too, quotes escaped
            export = await sized(tools, "snapshot_export", snapshot_id=deep, offset=offset)
            data += export["data"]
            if not export.get("truncated"):
                break
            offset = export["nextOffset"]
        assert export["end"] == len(data) > 50_000
        assert (await tools.ok("snapshot_import", data=data))["snapshot"]["variableCount"] > 0
        await tools.ok("stop")


async def test_memory_s_largest_read_is_within_the_bound() -> None:
    """A guard, not a change: 4096 bytes (at most 256 rows) were already about 21 KB of text at most."""
    ledger = PROGRAMS / "ledger.c"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(ledger), adapter="gdb",
                       breakpoints=[{"file": str(ledger), "line": marker(ledger, "summed")}])
        read = await sized(tools, "memory", expression="account", count=4096)
        assert read["count"] > 1000 and len(read["rows"]) <= 256, read["count"]  # to the stack's end
        await tools.ok("stop")
