"""`debug` mode `test` for JavaScript and TypeScript: which test runner a path is run by, and how.

A test file (`.js`, `.ts`, ...) or a directory is run by the runner its project names (its `package.json`'s
dependencies or `scripts.test`: mocha, Jest, Vitest), else by Node's own (node:test). Each runner is a
`NodeTestRunner`: the runners differ only in this data. Every runner catches a failing test's error to report it, so
the run stops where the runner records a failure: node_test_failure.cjs, preloaded into each of the run's processes
(the runner's workers too), has each runner call a function of its own there, and a hidden breakpoint on it is the
profile's `testFailure` filter (`FunctionFilter`).
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import DebugError, ErrorCode
from .base import FunctionFilter, Target, TestRunner

FAILURE_HOOK = Path(__file__).with_name("node_test_failure.cjs")
"""Preloaded (`--require`) into a test run's processes: each runner calls its `failed` where a test fails."""
RUNNER_MODULE = "DAP2MCP_TEST_RUNNER_MODULE"
"""The environment variable that names `NodeTestRunner.module`'s file to the failure hook."""
STOP_MARK = "// dap2mcp: test failure stop"
"""Marks the line of FAILURE_HOOK the hidden breakpoint is on, where its local `failure` says what failed."""

SOURCES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx")
"""Files a JavaScript test runner runs as tests."""
TEST_FILE = re.compile(r"(?:^test(?:-.+)?|[._-]test|\.spec)\.[cm]?[jt]sx?$")
"""node:test's default test file names (`*.test.js`, `*-test.js`, `*_test.js`, `test-*.js`, `test.js`), and `*.spec.js`."""


@dataclass(frozen=True)
class NodeTestRunner:
    """A JavaScript test runner, as `debug` mode `test` runs it under js-debug."""

    name: str
    """In the agent's words, and as the project names it: its npm package (`mocha`), or `node:test`."""
    script: str | None
    """Its command-line script within its npm package (`bin/mocha.js`); None: Node runs the tests itself."""
    module: str | None
    """Its file within its npm package that exports the class with its failure method (mocha's `lib/runner.js`,
    Vitest's `dist/index.js`), which the failure hook loads first; None: one the hook reaches by itself (node:test's
    internal module; Jest's jest-circus, hooked as Node loads it)."""
    node_options: tuple[str, ...]
    """Options to Node before the script or tests (node:test: `--test`, and `--expose-internals` so that the
    failure hook reaches its `Test` class)."""
    name_filter: str
    """The option `test` is given to: the runner's filter of tests by name."""
    no_tests: re.Pattern[str]
    """What the runner prints at the end of a run that selected no test."""
    command: re.Pattern[str]
    """How a `package.json`'s `scripts.test` names the runner."""
    subcommand: tuple[str, ...] = ()
    """Before the tests' path on the script's command line: Vitest's `run` (no watching)."""
    path_is_pattern: bool = False
    """The script reads the tests' path as a regular expression (Jest's `testPathPatterns`): it is escaped."""
    workers_by_environment: bool = False
    """The runner starts its workers with Node options of its own (Vitest's `execArgv`), not its own process's: the
    failure hook goes to them in `NODE_OPTIONS` (which js-debug's bootloader joins), not on the command line."""
    supported: bool = True
    """Recognised but not yet run under the debugger: refused with words, not run by another runner."""


NODE_TEST = NodeTestRunner(
    "node:test", None, None, ("--expose-internals", "--test"), "--test-name-pattern",
    # the TAP reporter's summary (not a terminal), the spec reporter's; Node 20 counts the tests its filter left
    # out as skipped, so none passed and none failed
    re.compile(r"^(?:# |ℹ )(?:tests 0|pass 0\n(?:# |ℹ )fail 0)$", re.M),
    re.compile(r"\bnode\b.*\s--test\b"))
MOCHA = NodeTestRunner("mocha", "bin/mocha.js", "lib/runner.js", (), "--grep", re.compile(r"^\s*0 passing\b", re.M),
                       re.compile(r"(?:^|[\s/])mocha\b"))
JEST = NodeTestRunner(
    "jest", "bin/jest.js", None, (), "-t",
    # a filter that selected nothing: 'Tests:       5 skipped, 5 total', no test passed or failed
    re.compile(r"^Tests:(?!.*\b(?:passed|failed)\b).*\btotal$|^No tests found", re.M),
    re.compile(r"(?:^|[\s/])jest\b"), path_is_pattern=True)
VITEST = NodeTestRunner(
    "vitest", "vitest.mjs", "dist/index.js", (), "-t",
    # 'Tests  5 skipped (5)', no test passed or failed (its colours taken out)
    re.compile(r"^\s*Tests\s+(?!.*\b(?:passed|failed)\b).*\(\d+\)$|^No test files found", re.M),
    re.compile(r"(?:^|[\s/])vitest\b"), subcommand=("run",), workers_by_environment=True)
RUNNERS = (MOCHA, JEST, VITEST, NODE_TEST)
"""In the order a project's package.json is read for them: a project that lists mocha and runs `node --test` too
is most likely run by mocha."""
BY_NAME = {runner.name: runner for runner in RUNNERS}


def project_of(path: str) -> Path | None:
    """The folder of the nearest `package.json` at or above `path`."""
    folder = Path(path).resolve()
    folder = folder if folder.is_dir() else folder.parent
    return next((f for f in (folder, *folder.parents) if (f / "package.json").is_file()), None)


def named_runner(project: Path) -> NodeTestRunner | None:
    """The runner `project`'s package.json names: among its dependencies, or in `scripts.test`."""
    try:
        package = json.loads((project / "package.json").read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(package, dict):
        return None
    listed: set[str] = set()
    for field in ("devDependencies", "dependencies"):
        if isinstance(package.get(field), dict):
            listed |= set(package[field])
    scripts = package.get("scripts")
    command = str(scripts.get("test") or "") if isinstance(scripts, dict) else ""
    return next((r for r in RUNNERS if r.name in listed or r.command.search(command)), None)


def has_js_tests(folder: str) -> bool:
    """Whether `folder` holds JavaScript or TypeScript test files (node_modules left out), and no Python ones: a
    directory node:test runs (its default test file names, or any file below a `test` folder)."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "node_modules" and not d.startswith(".")]
        if any(name.endswith(".py") for name in files):
            return False
        below_test = "test" in Path(root).relative_to(folder).parts
        if any(name.endswith(SOURCES) and (below_test or TEST_FILE.search(name)) for name in files):
            return True
    return False


def runs_tests(path: str) -> bool:
    """Whether mode `test` on `path` is a JavaScript runner's: a JavaScript or TypeScript file, or a directory whose
    package.json names a runner, or that holds JavaScript tests and no Python."""
    if os.path.isfile(path):
        return path.endswith(SOURCES)
    if not os.path.isdir(path):
        return False
    return named_runner(Path(path)) is not None if (Path(path) / "package.json").is_file() else has_js_tests(path)


def choose(path: str) -> NodeTestRunner:
    """The runner of the tests at `path`: the one its project names, else node:test; refused where it is one this
    does not run yet."""
    project = project_of(path)
    found = (named_runner(project) if project is not None else None) or NODE_TEST
    if not found.supported:
        runs = ", ".join(r.name for r in RUNNERS if r.supported)
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{found.name} tests are not run under the debugger yet ({runs} "
                         f"are); `debug` the test file with mode 'source' and a breakpoint in it, or run "
                         f"{found.name} with `node --inspect-brk` and mode 'connect'")
    return found


def runner_of(target: Target) -> NodeTestRunner | None:
    """The runner of a test run's session (or of one of its processes'), chosen again before `prepare` chose it."""
    if target.runner is not None:
        return BY_NAME.get(target.runner)
    return choose(target.absolute(target.path or ".")) if target.mode == "test" else None


def test_runner(runner: NodeTestRunner) -> TestRunner:
    return TestRunner(runner.name, records_failures=True, nothing_selected_text=runner.no_tests)


def installed(runner: NodeTestRunner, tests: str) -> Path:
    """The runner's npm package, from the `node_modules` nearest above `tests` that has it."""
    folder = Path(tests).resolve()
    for candidate in (folder if folder.is_dir() else folder.parent, *folder.parents):
        if (package := candidate / "node_modules" / runner.name / "package.json").is_file():
            return package.parent
    raise DebugError(ErrorCode.ADAPTER_NOT_FOUND, f"the project of {tests} runs its tests with {runner.name}, which "
                     f"is not installed in it: run `npm install` in {project_of(tests) or folder}")


def launch(runner: NodeTestRunner, target: Target) -> dict[str, Any]:
    """js-debug's `program`, `args`, `cwd` and the runner's Node options for the tests at `target.path`.

    node:test is given a file to run, or, for a directory, none, run in that directory: it finds the test files
    below it by their names (Node 22 takes no directory on its command line, only files and globs). A runner with a
    script of its own runs from its project's folder (where its configuration is), given the tests' path."""
    tests = target.absolute(target.path or ".")
    chosen = [runner.name_filter, target.test] if target.test else []
    hook = ["--require", str(FAILURE_HOOK)]
    if runner.script is None:
        is_dir = os.path.isdir(tests)
        return {**({} if is_dir else {"program": tests}), "args": [*target.args],
                "cwd": tests if is_dir else target.cwd or os.path.dirname(tests),
                "options": [*runner.node_options, *hook, *chosen]}
    project = project_of(tests)
    home = target.cwd or str(project or (tests if os.path.isdir(tests) else os.path.dirname(tests)))
    named = [] if project is not None and Path(tests) == project else [pattern(tests) if runner.path_is_pattern
                                                                         else tests]
    package = installed(runner, tests)
    env = {**target.env, **({RUNNER_MODULE: str(package / runner.module)} if runner.module else {})}
    if runner.workers_by_environment:
        env["NODE_OPTIONS"] = " ".join(filter(None, [target.env.get("NODE_OPTIONS", os.environ.get("NODE_OPTIONS")),
                                                     f"--require {json.dumps(str(FAILURE_HOOK))}"]))
        hook = []
    return {"program": str(package / str(runner.script)), "args": [*runner.subcommand, *named, *chosen, *target.args],
            "cwd": home, "env": env, "options": [*runner.node_options, *hook]}


def pattern(path: str) -> str:
    """`path` as a JavaScript regular expression that matches it (and the files below it)."""
    return re.sub(r"[\\^$.*+?()[\]{}|]", lambda found: "\\" + found.group(), path)


@functools.cache
def stop_line() -> int:
    """The line of FAILURE_HOOK the failure stop is on."""
    lines = FAILURE_HOOK.read_text().splitlines()
    return next(number for number, text in enumerate(lines, 1) if STOP_MARK in text)


def failure_filter(runner: NodeTestRunner) -> FunctionFilter:
    """The `testFailure` filter of a run by `runner`: its stop is where the runner records a failed test, shown at
    the place in the project's code the error's stack names (where the assertion failed)."""
    return FunctionFilter("testFailure", f"{runner.name} test failure", "failed",
                          place=(str(FAILURE_HOOK), stop_line()), report="failure")
