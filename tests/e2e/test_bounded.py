"""Every answer is valid and bounded: output that is not UTF-8, huge snapshots, floods of output,
and what adapters say about themselves, through the real server over stdio and real adapters."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import PROGRAMS, marker, stdio_tools

BAD_BYTES_PY = PROGRAMS / "bad_bytes.py"
BAD_BYTES_C = PROGRAMS / "bad_bytes.c"


@pytest.mark.parametrize(("program", "adapter"), [(BAD_BYTES_PY, None), (BAD_BYTES_C, None), (BAD_BYTES_C, "gdb")],
                         ids=["debugpy", "lldb", "gdb"])
async def test_a_byte_that_is_not_utf8_comes_out_replaced(program: Path, adapter: str | None) -> None:
    """debugpy sent the byte as a lone surrogate (`\\udcff`), which no answer holding it could
    serialize: `debug`, `step`, `output` and the output resource all failed."""
    async with stdio_tools() as tools:
        extra = {"adapter": adapter} if adapter else {}
        started = await tools.ok("debug", mode="source", path=str(program), **extra,
                                 breakpoints=[{"file": str(program), "line": marker(program, "written")}])
        assert started["state"] == "paused" and started["location"]["line"] == marker(program, "written")
        stepped = await tools.ok("step", mode="over")
        assert stepped["state"] == "paused"
        seen = started.get("output", {}).get("text", "") + stepped.get("output", {}).get("text", "")
        assert "bad \ufffd byte\n" in seen
        assert "bad \ufffd byte\n" in (await tools.ok("output"))["text"]
        assert "bad \ufffd byte\n" in (await tools.read_json("debugger://output"))["text"]
        await tools.ok("stop")

