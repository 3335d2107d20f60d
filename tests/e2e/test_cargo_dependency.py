"""A Cargo project with a crates.io dependency (tests/programs/cargo_semver: `semver` 1.0.28, which depends on no
other crate, pinned by its Cargo.lock), under real cargo and lldb-dap over stdio: mode `source` stops in the
project with the dependency's types read by their fields, mode `test` stops at the failing test's assert; a build
that fails says what went wrong without cargo's words of progress."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from conftest import PROGRAMS, locals_of, marker, stdio_tools

PROJECT = PROGRAMS / "cargo_semver"
LIB = PROJECT / "src" / "lib.rs"
BUILD = 240  # cargo fetches and builds the dependency first: far above the usual seconds, on a busy machine


async def test_mode_source_stops_in_the_project_with_the_dependencys_values_read_by_their_fields_and_steps():
    line = marker(LIB, "best")
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(PROJECT), timeout=BUILD,
                             breakpoints=[{"file": str(LIB), "line": line}])
        assert ctx["reason"] == "breakpoint" and ctx["location"]["function"] == "releases::newest", ctx
        assert ctx["location"]["line"] == line
        values = locals_of(ctx)
        assert values["version"].startswith("{major: 1, minor: 2, patch: 0, "), values  # a semver::Version
        assert values["best"] == "None" and values["tag"].endswith(' "v1.2.0"'), values  # a &&str: the text it holds
        assert (await tools.ok("evaluate", expression="version.minor"))["value"] == "2"
        comparators = await tools.ok("evaluate", expression="wanted->comparators")
        assert comparators["value"] == "size=1 [{op: Caret, major: 1, minor: Some(2), patch: None, pre: {…}}]", comparators

        ctx = await tools.ok("step", mode="over")
        assert ctx["reason"] == "step" and ctx["location"]["function"] == "releases::newest", ctx
        assert ctx["location"]["line"] != line
        assert locals_of(ctx)["best"] == "Some({major:1, minor:2, patch:0, pre:{…}, build:{…}})", locals_of(ctx)

        ctx = await tools.ok("continue")  # the next tag the requirement accepts
        assert ctx["reason"] == "breakpoint" and locals_of(ctx)["version"].startswith("{major: 1, minor: 4, patch: 1, ")
        await tools.ok("clear-breakpoints", all=True)
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert "newest: 1.4.1" in ended["output"]["text"]


async def test_mode_test_stops_at_the_failing_assert_in_the_tests_frame_with_its_message():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="test", path=str(PROJECT), timeout=BUILD)
        assert (ctx["state"], ctx["reason"]) == ("paused", "exception"), ctx
        assert ctx["location"]["function"] == "releases::tests::skips_tags_that_are_no_version", ctx["location"]
        assert ctx["location"]["line"] == marker(LIB, "assert_eq")
        assert ctx["exception"]["message"] == ("assertion `left == right` failed\n  left: None\n"
                                               " right: Some(Version { major: 1, minor: 4, patch: 1 })"), ctx["exception"]
        values = locals_of(ctx)
        assert values["found"] == "None" and values["wanted"].startswith("{comparators: size=1 ["), values
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 101, ended
        assert "test result: FAILED. 1 passed; 1 failed" in ended["output"]["text"]


PROGRESS = ("Updating", "Locking", "Downloading", "Downloaded", "Compiling", "waiting for other jobs")


async def test_a_failed_build_says_what_went_wrong_without_cargos_progress(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch):
    """cargo's lines of progress (`Updating crates.io index`, `Downloaded semver v1.0.28`) came first in the
    message, before the error they led to. An empty CARGO_HOME makes cargo fetch the dependency again, so that it
    says them whatever this machine's cache holds."""
    project = tmp_path / "releases"
    shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns("target"))
    cargo_home = tmp_path / "cargo-home"
    cargo_home.mkdir()
    for name in ("config.toml", "config"):  # a mirror or proxy this machine reaches crates.io through
        mine = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo")) / name
        if mine.is_file():
            shutil.copy(mine, cargo_home / name)
    monkeypatch.setenv("CARGO_HOME", str(cargo_home))  # the server's environment
    monkeypatch.setenv("DAP2MCP_CACHE", str(tmp_path / "cache"))
    manifest = project / "Cargo.toml"
    async with stdio_tools() as tools:
        manifest.write_text(manifest.read_text().replace('semver = "1.0.28"', 'semver = "=0.0.999"'))
        started = time.monotonic()
        message = await tools.error("debug", "BUILD_FAILED", mode="source", path=str(project), timeout=BUILD)
        # a hang guard: cargo says so in 1 to 3 s (one look at the index); the fault built and fetched for minutes
        assert time.monotonic() - started < 60, "a version that does not exist is known at once"
        assert 'failed to select a version for the requirement `semver = "=0.0.999"`' in message, message
        assert not [word for word in PROGRESS if word in message], message

        manifest.write_text(manifest.read_text().replace('semver = "=0.0.999"', 'semver = "1.0.28"'))
        source = project / "src" / "lib.rs"
        source.write_text(source.read_text().replace("best = Some(version);", "best = Some(versio);"))
        message = await tools.error("debug", "BUILD_FAILED", mode="test", path=str(project), timeout=BUILD)
        assert "error[E0425]: cannot find value `versio` in this scope" in message, message
        assert "could not compile `releases`" in message
        assert not [word for word in PROGRESS if word in message], message
    assert (cargo_home / "registry").is_dir()  # cargo did fetch, and said so, in the server's environment
