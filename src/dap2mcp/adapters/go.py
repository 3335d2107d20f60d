"""Go: Delve's DAP server. It speaks DAP only over TCP, so it is started listening on a free loopback
port and the address is read from its first line of output; it runs (`exec`) what go_build built, and builds
only over `connect`, where the program is on the other machine.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, replace
from typing import Any

from ..errors import DebugError, ErrorCode
from ..processes import child_setup
from . import go_build, system_packages, tool_dir
from .base import (
    AdapterProfile,
    AdapterStart,
    BreakpointRules,
    ConsoleRules,
    EvaluationRules,
    FunctionFilter,
    LaunchRules,
    OutputRules,
    PathMapSpelling,
    ProgramRules,
    StopRules,
    Target,
    TestRunner,
    Tool,
)
from .go_build import GO

DELVE_RELEASE = "1.27.2"
"""The Delve `dap2mcp install go` builds: the newest release; it debugs Go 1.25 to 1.27."""
DELVE_BUILT_BY_GO = "1.25"
"""The oldest Go that builds DELVE_RELEASE (its go.mod); with an older one, Debian's Delve is installed instead."""

DELVE_GO_RANGE = {20: (18, 20), 21: (19, 21), 23: (21, 23), 24: (21, 24), 25: (22, 25), 26: (24, 26), 27: (25, 27)}
"""Delve 1.N's own check (its pkg/goversion): the Go 1.x minors whose programs it debugs; it refuses the others
("Version of Delve is too old for Go version …"). A release not listed debugs Go up to 1.N, as each of these does."""


def _unfit_for_go(dlv: str) -> str | None:
    """The Delve at `dlv` against the Go that builds programs here, where both tell their versions."""
    go = shutil.which("go")
    return refusal(dlv, _go_version(go, "env", "GOVERSION"), "go here") if go else None


DLV = Tool("adapter", ("dlv",), version_argv=("version",), unfit=_unfit_for_go, fetch="go",
           note=f"Delve {DELVE_RELEASE}, built with Go {DELVE_BUILT_BY_GO} or later; with an older Go: "
                f"{system_packages.install_command(['delve'])}")


def refusal(dlv: str, go_version: str | None, whose: str) -> str | None:
    """Why the Delve at `dlv` would refuse a program of `go_version` (built by `whose`), or None."""
    delve = delve_version(dlv)
    minor = go_minor(go_version)
    if delve is None or minor is None or go_version is None:
        return None
    low, high = _range_of(int(delve.split(".")[1]))
    if low <= minor <= high:
        return None
    known = f"Go 1.{low} to 1.{high}" if low else f"Go up to 1.{high}"
    return f"Delve {delve} debugs programs of {known}, and {whose} is {go_version[2:]}"


def _range_of(delve_minor: int) -> tuple[int, int]:
    return DELVE_GO_RANGE.get(delve_minor, (0, delve_minor))


def fix_for(go_version: str | None) -> str:
    """What to install for a Delve that refuses programs of `go_version`: for a Go older than the pinned Delve
    debugs, the newest release that still debugs it; else the pinned one."""
    minor = go_minor(go_version) or 0
    fitting = [m for m, (low, high) in sorted(DELVE_GO_RANGE.items()) if low <= minor <= high]
    if minor < _range_of(int(DELVE_RELEASE.split(".")[1]))[0] and fitting:
        return (f"install a Delve that debugs Go 1.{minor} with: GOBIN={tool_dir.bin_dir()} go install "
                f"github.com/go-delve/delve/cmd/dlv@v1.{fitting[-1]}")
    return f"install a Delve that can with: {DLV.install}"


GO_VERSION = re.compile(r"\bgo1\.(\d+)(?:\.\d+)?")
"""How go names its versions: `go1.26.8`, `go1.22`."""


def go_minor(go_version: str | None) -> int | None:
    found = GO_VERSION.match(go_version or "")
    return int(found[1]) if found else None


def delve_version(dlv: str) -> str | None:
    found = re.search(r"^Version: (\d+\.\d+\.\d+)", _said(dlv, "version"), re.M)
    return found[1] if found else None


def _go_version(go: str, *argv: str) -> str | None:
    """`go env GOVERSION` (the Go that builds here), or `go version FILE` (the Go that built an executable)."""
    return _version_in(_said(go, *argv))


def go_version_at(go: str, directory: str, env: dict[str, str]) -> str | None:
    """The Go that builds in `directory` with `env`: a go.mod's `toolchain` line or GOTOOLCHAIN may pick another
    than the one on PATH. Asked each time (the answer depends on the directory and the env)."""
    try:
        return _version_in(subprocess.run([go, "env", "GOVERSION"], cwd=directory, env=env, capture_output=True,
                                          text=True, timeout=20, stdin=subprocess.DEVNULL, errors="replace").stdout)
    except (OSError, subprocess.SubprocessError):
        return None


def _version_in(said: str) -> str | None:
    found = GO_VERSION.search(said)
    return found[0] if found else None


def _said(*command: str) -> str:
    """What `command` printed, asked again only when one of the files it names has changed."""
    return _said_of(command, tuple(_modified(c) for c in command if os.path.sep in c))


@functools.cache
def _said_of(command: tuple[str, ...], _modified: tuple[int, ...]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL,
                              errors="replace").stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def _modified(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


@dataclass(frozen=True)
class DelveProfile(AdapterProfile):
    def prepare(self, target: Target) -> tuple[Target, str | None]:
        """Modes `source` and `test` build here (go_build), once the Delve found is known to debug what the Go there
        builds; an executable (mode `binary`, or a process to attach to) is checked against the Go that built it."""
        target, _ = super().prepare(target)
        dlv, go = DLV.require(self.name), GO.require(self.name)
        if target.mode in ("source", "test"):
            tests, deadline = target.mode == "test", go_build.Deadline(target.fetch_within)
            package = go_build.resolve(target.absolute(target.path or "."), tests=tests, env=target.env,
                                       deadline=deadline)
            # the Go that builds in the package's directory with the session's env (a go.mod's toolchain line,
            # GOTOOLCHAIN), against the Delve, before anything is built
            version = go_version_at(go, package.directory, package.environment(target.env))
            self._refuse(f"{self.name} cannot debug what go builds in {package.directory}", version,
                         refusal(dlv, version, "go there"))
            program = go_build.build(package, tests=tests, env=target.env, deadline=deadline)
            return replace(target, program=program, package_dir=package.directory), version
        executable = target.program if target.mode in ("binary", "core") else \
            f"/proc/{target.process_id}/exe" if target.mode == "attach" else None
        if executable:  # built elsewhere, maybe by another Go than this machine's
            version = _go_version(go, "version", executable)
            self._refuse(f"{self.name} cannot debug {executable}", version,
                         refusal(dlv, version, "the Go that built it"))
        return target, None

    @staticmethod
    def _refuse(what: str, go_version: str | None, problem: str | None) -> None:
        if problem:
            raise DebugError(ErrorCode.ADAPTER_NOT_FOUND, f"{what}: {problem}; {fix_for(go_version)} (or run "
                             "`dap2mcp doctor`)")

    def plan(self, target: Target) -> AdapterStart:
        argv = [DLV.require(self.name), "dap", "--listen=127.0.0.1:0"]
        common: dict[str, Any] = {"name": "dap2mcp", "type": "go", **self.path_map_arguments(target)}
        if target.mode == "core":
            return AdapterStart(argv, "launch", {**common, "request": "launch", "mode": "core",
                                                 "program": target.program, "coreFilePath": target.core},
                                listen=LISTENING)
        if target.mode == "attach":
            return AdapterStart(argv, "attach", {**common, "request": "attach", "mode": "local",
                                                 "processId": target.process_id}, listen=LISTENING)
        if target.mode == "connect":
            if not target.path:  # a `dlv --headless` already debugging something
                return AdapterStart([], "attach", {**common, "request": "attach", "mode": "remote"},
                                    address=target.address)
            # the Delve there builds the program, from its own copy of the source
            return AdapterStart([], "launch", {**common, "request": "launch", "mode": "debug", "outputMode": "remote",
                                               "program": go_build.lone_file_or_package(target.path),
                                               "args": list(target.args), "env": dict(target.env),
                                               **({"cwd": target.cwd} if target.cwd else {})}, address=target.address)
        source = target.absolute(target.path or ".")
        home = target.package_dir or (source if os.path.isdir(source) else os.path.dirname(source))
        args = list(target.args)
        if target.mode == "test":  # the package's test binary, as `go test -v -run TEST` runs it
            args = [*(["-test.run", target.test] if target.test else []), "-test.v", *args]
        arguments = {**common, "request": "launch", "mode": "exec", "program": target.program or source,
                     "args": args, "cwd": target.cwd or home, "env": dict(target.env)}
        return AdapterStart(argv, "launch", arguments, listen=LISTENING, cwd=home or None)

    def library_dirs(self) -> tuple[str, ...]:
        return _goroot()

    def entry(self, target: Target) -> str | None:
        """`stopOnEntry` in a test run stops in the first selected test, not in the test binary's `main.main`
        (generated into a _testmain.go that is gone, where no test has started)."""
        if target.mode == "test" and target.stop_on_entry and target.program:
            return _first_test(target.program, target) or self.launch.entry_function
        return self.launch.entry_function

    def function_filters(self, target: Target) -> tuple[FunctionFilter, ...]:
        return (TEST_FAILURE,) if target.mode == "test" else ()


@functools.cache
def _goroot() -> tuple[str, ...]:
    """GOROOT, as the path Delve names its files by and as resolved: the standard library's source is there
    (`time.Sleep`, `sync.(*Mutex).Lock`), and a pause mostly stops in it. Nothing where `go` is missing."""
    go = shutil.which("go")
    if go is None:
        return ()
    try:
        root = subprocess.run([go, "env", "GOROOT"], capture_output=True, text=True, timeout=20, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ()
    return tuple(dict.fromkeys(os.path.join(r, "") for r in (root, os.path.realpath(root)) if root))


def _first_test(binary: str, target: Target) -> str | None:
    """The first test the run selects, as the test binary lists them (`-test.list`) in the order they run (the
    tests, then the fuzz tests and examples); Delve finds a function by its name without its package's. None where
    it lists none."""
    pattern = (target.test or ".").split("/")[0]  # -test.run's subtest part: -list takes the top level only
    try:
        listed = subprocess.run([binary, "-test.list", pattern], cwd=target.cwd or target.package_dir,
                                capture_output=True, text=True, errors="replace", env={**os.environ, **target.env},
                                timeout=go_build.LIST_TIMEOUT, stdin=subprocess.DEVNULL, preexec_fn=child_setup)
    except (OSError, subprocess.TimeoutExpired):
        return None
    names = [line for line in listed.stdout.splitlines() if re.fullmatch(r"(?:Test|Fuzz|Example)\w*", line)]
    return next((n for n in names if n.startswith("Test")), names[0] if names else None)


TEST_FAILURE = FunctionFilter(
    "testFailure", "Go test failure", "testing.(*common).Fail",
    # `-test.v` has the testing package print what t.Errorf or t.Fatalf says as it is said (unverbose, it is kept
    # until the test ends), just before the call to Fail: "    pricing_test.go:16: Total = 3540, want 3900", its
    # further lines indented by 8 more. Only as the output's last line: a bare t.Fail() says nothing, and the
    # message before it is another failure's.
    re.compile(r"^ +(?P<place>[\w.-]+\.go:\d+): (?P<message>.*(?:\n {8}.*)*)\n?\Z", re.M),
    # Fail calls itself for the parent test first; the testing package's deferred check calls it for a test
    # that panicked (or ran runtime.Goexit), and then panics, which stops the program as a panic
    again_from=re.compile(r"^testing\.(?:\(\*common\)\.Fail|tRunner\.func[\d.]+)$"))
"""Every failing `t.Error*`, `t.Fatal*`, `t.Fail` and `t.FailNow` ends in `testing.(*common).Fail`: the stop is
shown at the test's own frame below the testing package's (it is in GOROOT), with the message it logged."""

LISTENING = re.compile(r"listening at:?\s*\[?(?P<host>[\w.:]+?)\]?:(?P<port>\d+)")

DELVE = DelveProfile(
    name="delve",
    adapter_id="delve",
    language="go",
    extensions=(".go",),
    tools=(DLV, GO),
    launch=LaunchRules(
        build_failure_markers=("Build error", "build failed", "could not build"),
        launch_timeout=180.0,
        entry_function="main.main",
        reads_cores=True,
        core_stop_told=False,
        path_map=PathMapSpelling("substitutePath", local="from", remote="to"),  # from the client's path to the debugger's
        tests=TestRunner("go test", nothing_selected_text=re.compile(r"^testing: warning: no tests to run$", re.M)),
    ),
    program=ProgramRules(
        inferior_depth=1,  # dlv runs the program it built as its own child
        exit_pattern=re.compile(r"Process \d+ has exited with status (?P<code>-?\d+)"),
    ),
    output=OutputRules(
        program_categories=("stdout", "stderr"),  # Delve's own messages are "console"; its debuggee writes to dlv's stdio
        own_log_lines=re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d) "
                                 r"(?:debug|info|warning|error|fatal|panic) layer=\w+ .*\n?", re.MULTILINE),
        console_noise=re.compile(r"^(Type 'dlv help' for list of commands\.|Detaching.*|Process \d+ has exited with status -?\d+)\n",
                                 re.MULTILINE),
    ),
    stops=StopRules(
        steady_ids=True,
        guesses_total_frames=True,
        stop_text_detail=True,
        untold_texts=(("panic", "(*msgs).link.arg.(data)"),),  # runtime.fatalpanic(msgs *_panic), where it stops
        failed_command_stop="runtime error",  # e.g. a step out of the vDSO a pause landed in: "input/output error"
        lists_every_thread=False,
        runtime_frames=re.compile(r"runtime\."),
        threads_named_by_runtime=True,
    ),
    evaluation=EvaluationRules(
        sets_in_top_frame_only=True,
    ),
    breakpoints=BreakpointRules(
        log_prefix=r"> \[Go \d+\]: ",
    ),
    console=ConsoleRules(
        address_of="unsafe.Pointer(&({}))",  # what `memory` reads for an expression
        address_said=re.compile(r"\(unsafe\.Pointer\)\((0x[0-9a-fA-F]+)\)$"),
        memory_expression="*(*[{count}]byte)({address:#x})",
        # `dlv config` would change Delve's settings behind dap2mcp's back (substitutePath: the paths it shows,
        # stackTraceDepth, hideSystemGoroutines: the stacks and threads it reads); help, sources and the list pass
        console_prefix="dlv ",
        save_core_instead="Delve's `dump` is not reachable over DAP: run `gcore PID` on the paused program, then "
                          "debug it with mode 'core'",
        console_reads=frozenset({"help", "h", "sources", "s", "config -list"}),
        console_instead=((frozenset({"config"}), "`debug` (dap2mcp sets Delve's configuration; `dlv config -list` "
                                                 "shows it)"),),
    ),
)
