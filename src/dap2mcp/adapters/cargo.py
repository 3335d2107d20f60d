"""Cargo projects (a directory with Cargo.toml): the test binary for `debug` mode `test`, a binary for mode
`source`, built by cargo into dap2mcp's cache (`--target-dir`), never into the project's `target/`.

cargo says what it built as JSON messages (`--message-format=json`): each `compiler-artifact` names its
target, whether it is a test build, and its `executable`.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from typing import Any

from ..errors import DebugError, ErrorCode
from .base import Tool
from .build import MESSAGE_CHARS, cache_dir, run_tool

CARGO = Tool("compiler", ("cargo",), package="cargo", note="or rustup")
LIST_TIMEOUT = 30.0
TEST_OPTIONS = ("--test-threads=1", "--nocapture")
"""How a test binary is run: one test at a time, so that the first failure stops the run before another test
runs on; and what a test prints (the panic's message among it, which the `panic` filter reads) printed as it
is, not held until the test ends."""


PROGRESS = ("Updating", "Locking", "Adding", "Blocking", "Downloading", "Downloaded", "Compiling", "Checking", "Fresh",
            "Finished")
"""The words cargo begins its lines of progress with (`Updating crates.io index`, `Downloaded semver v1.0.28`,
`Compiling semver v1.0.28`): a failed build's message leaves them out, so that it is only what went wrong."""


KIND_ORDER = ("lib", "rlib", "bin", "test", "example", "bench")
"""The order `cargo test` runs its test binaries in, by the kind of target each tests."""


def is_project(path: str) -> bool:
    return os.path.isdir(path) and os.path.isfile(os.path.join(path, "Cargo.toml"))


def test_binary(project: str, test: str | None) -> tuple[str, tuple[str, ...]]:
    """The test binary to run `test` in (`cargo test` runs each in turn; one session debugs one program): the
    only one built, else the first whose own list of tests `test` selects from, in `cargo test`'s order (the
    library's unit tests, the binaries', then each of tests/), else the first. With it, the others `cargo test`
    would run next with tests selected, in the agent's words: each by its source file, a test of its own
    named, which `test` can select it by."""
    artifacts = [m for m in _cargo(["test", "--no-run"], project)
                 if m.get("reason") == "compiler-artifact" and m.get("executable") and (m.get("profile") or {}).get("test")]
    artifacts.sort(key=lambda m: min((KIND_ORDER.index(k) for k in (m.get("target") or {}).get("kind", ())
                                      if k in KIND_ORDER), default=len(KIND_ORDER)))
    if not artifacts:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cargo built no test binary in '{project}' (the project has "
                         "no library, binary or tests/ target to test)")
    if len(artifacts) == 1:
        return artifacts[0]["executable"], ()
    selected = [(m, tests) for m in artifacts if (tests := listed(m["executable"], test, project))]
    if not selected:
        return artifacts[0]["executable"], ()
    return selected[0][0]["executable"], tuple(f"{_source(m, project)} ({len(tests)} test{'s' * (len(tests) > 1)}, "
                                               f"e.g. {tests[0].rsplit('::', 1)[-1]})" for m, tests in selected[1:])


def _source(artifact: dict[str, Any], project: str) -> str:
    """The file a test binary is built from, as the project names it (tests/shelf_integration.rs)."""
    path = (artifact.get("target") or {}).get("src_path") or artifact["executable"]
    return os.path.relpath(path, os.path.realpath(project)) if os.path.isabs(path) else path


def test_arguments(test: str | None, args: tuple[str, ...]) -> list[str]:
    return [*([test] if test else []), *TEST_OPTIONS, *args]


def binary(project: str, name: str | None) -> str:
    """The project's binary `name` (cargo's `--bin`), built; `name` may be left out where there is one."""
    bins = _binaries(project)
    if not bins:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"the Cargo project '{project}' has no binary to run (a "
                         "library only): debug its tests with mode 'test'")
    if name is None and len(bins) > 1:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"the Cargo project '{project}' has {len(bins)} binaries: "
                         f"{', '.join(bins)}; say which with `bin`")
    name = name or bins[0]
    if name not in bins:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"the Cargo project '{project}' has no binary '{name}'; "
                         f"its binaries: {', '.join(bins)}")
    built = [m["executable"] for m in _cargo(["build", "--bin", name], project)
             if m.get("reason") == "compiler-artifact" and m.get("executable")]
    if not built:
        raise DebugError(ErrorCode.BUILD_FAILED, f"cargo build --bin {name} reported no executable")
    return built[-1]


def _binaries(project: str) -> list[str]:
    """The names of the package's `bin` targets (src/main.rs, src/bin/*), from `cargo metadata`."""
    messages = _cargo(["metadata", "--no-deps", "--format-version", "1"], project, builds=False)
    manifest = os.path.realpath(os.path.join(project, "Cargo.toml"))
    return [t["name"] for m in messages for p in m.get("packages", ())
            if os.path.realpath(p.get("manifest_path", "")) == manifest
            for t in p.get("targets", ()) if "bin" in t.get("kind", ())]


def listed(executable: str, test: str | None, project: str) -> list[str]:
    """The tests of the test binary that `test` selects, by its own `--list`, in the order it runs them (by name:
    `tests::restock_adds_ten_per_crate`); none where it cannot list them."""
    try:
        listing = subprocess.run([executable, *([test] if test else []), "--list", "--format", "terse"], cwd=project,
                                 capture_output=True, text=True, timeout=LIST_TIMEOUT, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [line.removesuffix(": test") for line in listing.stdout.splitlines() if line.endswith(": test")]


def target_dir(project: str) -> str:
    """Where cargo builds `project`: one directory per project in the cache, kept between builds (cargo's own
    incremental builds then take seconds, not minutes)."""
    key = hashlib.sha256(os.path.realpath(project).encode()).hexdigest()[:16]
    return str(cache_dir() / "cargo" / key)


def _cargo(arguments: list[str], project: str, builds: bool = True) -> list[dict[str, Any]]:
    """cargo's JSON messages for `cargo ARGUMENTS` in `project` (a build's, into the cache); BUILD_FAILED with
    the compiler's errors."""
    command = [CARGO.require("lldb"), *arguments]
    if builds:
        command += ["--target-dir", target_dir(project), "--message-format=json"]
    code, text = run_tool(command, cwd=project)
    messages, said = [], []
    for line in text.splitlines():
        message = _message(line)
        if message is None:
            said.append(line)  # cargo's own words (its stderr)
            continue
        messages.append(message)
        if message.get("reason") == "compiler-message" and message["message"].get("level") == "error":
            said.append(message["message"].get("rendered") or message["message"].get("message", ""))
    if code != 0:
        text = "\n".join(s for s in said if not _progress(s)).strip()
        if len(text) > MESSAGE_CHARS:
            text = text[:MESSAGE_CHARS] + f"\n… ({len(text) - MESSAGE_CHARS} more characters)"
        raise DebugError(ErrorCode.BUILD_FAILED, f"cargo {' '.join(arguments)} failed (exit {code}):\n{text}")
    return messages


def _progress(line: str) -> bool:
    first = line.split(maxsplit=1)
    return bool(first) and first[0] in PROGRESS or line.startswith("warning: build failed, waiting for other jobs")


def _message(line: str) -> dict[str, Any] | None:
    if not line.startswith("{"):
        return None
    try:
        found = json.loads(line)
    except json.JSONDecodeError:
        return None
    return found if isinstance(found, dict) else None
