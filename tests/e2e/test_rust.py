"""Rust under lldb-dap, on programs shaped like real code: the values its enums hold, a value the toolchain's
formatters cannot read in time, and panics."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from conftest import PROGRAMS, locals_of, marker, stdio_tools

LEDGER = PROGRAMS / "ledger.rs"
EXPECTED = {
    "count": "Ok(12)", "missing": 'Err("no count")', "cents": "Ok(1250)",
    "refused": 'Err("bad amount "12x": invalid digit found in string")',
    "first": 'Some(Ok(Deposit{account:"alice", cents:1250}))', "second": 'Some(Ok(Withdrawal("bob", 300)))',
    "note": "Some(Ok(Comment))", "nothing": "None",
}


def cargo_project(tmp_path: Path, source: Path) -> Path:
    """A crate with no dependencies around `source`, built by cargo (no network needed); its executable."""
    (tmp_path / "src").mkdir()
    shutil.copy(source, tmp_path / "src" / "main.rs")
    (tmp_path / "Cargo.toml").write_text(f'[package]\nname = "{source.stem}"\nversion = "0.1.0"\nedition = "2021"\n')
    subprocess.run(["cargo", "build", "--offline", "--quiet"], cwd=tmp_path, check=True, capture_output=True)
    return tmp_path / "target" / "debug" / source.stem


async def test_results_options_and_enums_show_the_variant_they_hold(tmp_path: Path) -> None:
    """lldb 19 keeps 32 bits of a variant's discriminant, so the toolchain's formatter matched no variant of a
    niche-encoded `Result<u32, String>` and showed its default one: `Ok(12)` read as `Err("")`."""
    exe = cargo_project(tmp_path, LEDGER)
    built = tmp_path / "src" / "main.rs"
    async with stdio_tools() as tools:
        for mode, path, source in [("source", LEDGER, LEDGER), ("binary", exe, built)]:
            ctx = await tools.ok("debug", mode=mode, path=str(path),
                                 breakpoints=[{"file": str(source), "line": marker(source, "parsed")}])
            assert ctx["reason"] == "breakpoint", ctx
            values = locals_of(ctx)
            assert {name: values.get(name) for name in EXPECTED} == EXPECTED, values
            assert (await tools.ok("evaluate", expression="count"))["value"] == "Ok(12)"
            await tools.ok("stop")


async def test_a_value_the_formatters_cannot_read_in_time_is_unreadable_and_the_session_goes_on() -> None:
    """The toolchain's `HashMap` formatter walks every bucket: a map of a million entries kept lldb-dap, which
    answers one request at a time, busy for minutes, and every call after it answered TIMEOUT."""
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(LEDGER), timeout=120,
                             breakpoints=[{"file": str(LEDGER), "line": marker(LEDGER, "indexed")}])
        assert ctx["reason"] == "breakpoint", ctx
        values = locals_of(ctx)
        assert values["index"].startswith("<unreadable: lldb's Rust formatter ran past"), values
        assert values["total"] == "1099510579200" and values["count"] == "Ok(12)", values
        assert (await tools.ok("evaluate", expression="total"))["value"] == "1099510579200"
        again = await tools.ok("context")
        assert locals_of(again)["index"].startswith("<unreadable"), again
        await tools.ok("clear-breakpoints", all=True)
        end = await tools.ok("continue", timeout=120)
        assert end["state"] == "terminated" and "1048576 entries" in end["output"]["text"], end
