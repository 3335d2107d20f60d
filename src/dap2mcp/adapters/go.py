"""Go: Delve's DAP server. It speaks DAP only over TCP, so it is started listening on a free loopback
port and the address is read from its first line of output; Delve builds `source` programs itself.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

from .base import AdapterProfile, AdapterStart, FunctionFilter, PathMapSpelling, Target, TestRunner, Tool
from .build import output_for

DLV = Tool("adapter", ("dlv",), version_argv=("version",), install="apt-get install -y delve")
GO = Tool("compiler", ("go",), version_argv=("version",), install="apt-get install -y golang-go")


@dataclass(frozen=True)
class DelveProfile(AdapterProfile):
    def prepare(self, target: Target) -> tuple[Target, str | None]:
        target, _ = super().prepare(target)
        return target, ("go (through dlv)" if target.mode == "source" else None)

    def plan(self, target: Target) -> AdapterStart:
        argv = [DLV.require(self.name), "dap", "--listen=127.0.0.1:0"]
        common: dict[str, Any] = {"name": "dap2mcp", "type": "go", **self.path_map_arguments(target)}
        if target.mode == "attach":
            return AdapterStart(argv, "attach", {**common, "request": "attach", "mode": "local",
                                                 "processId": target.process_id}, listen=LISTENING)
        if target.mode == "connect" and not target.path:  # a `dlv --headless` already debugging something
            return AdapterStart([], "attach", {**common, "request": "attach", "mode": "remote"},
                                address=target.address)
        program = _package_of(target.program or target.path or "")
        home = program if os.path.isdir(program) else os.path.dirname(program)
        arguments = {**common, "request": "launch", "program": program, "args": list(target.args),
                     "cwd": target.cwd or home, "env": dict(target.env)}
        if target.mode == "binary":
            arguments["mode"] = "exec"
        elif target.mode == "test":  # the package's test binary, as `go test -v -run TEST` runs it
            selected = ["-test.run", target.test] if target.test else []
            arguments |= {"mode": "test", "output": str(output_for(program + ".test")),
                          "args": [*selected, "-test.v", *target.args]}
        else:
            arguments |= {"mode": "debug", "output": str(output_for(program))}
        if target.mode == "connect":
            return AdapterStart([], "launch", arguments, address=target.address)
        return AdapterStart(argv, "launch", arguments, listen=LISTENING, cwd=home or None)

    def library_dirs(self) -> tuple[str, ...]:
        return _goroot()

    def entry(self, target: Target) -> str | None:
        """`stopOnEntry` in a test run stops in the first selected test, not in the test binary's `main.main`
        (generated into a _testmain.go that is gone, where no test has started)."""
        if target.mode == "test" and target.stop_on_entry:
            return _first_test(target.absolute(target.path or "."), target) or self.entry_function
        return self.entry_function

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


def _first_test(package: str, target: Target) -> str | None:
    """The first test the run selects, as `go test -list` lists them in the order they run (the tests, then the
    fuzz tests and examples); Delve finds a function by its name without its package's. None where go lists none."""
    pattern = (target.test or ".").split("/")[0]  # -test.run's subtest part: -list takes the top level only
    try:
        listed = subprocess.run([GO.require("delve"), "test", "-list", pattern], cwd=package, capture_output=True,
                                text=True, errors="replace", env={**os.environ, **target.env}, timeout=LIST_TIMEOUT,
                                stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    names = [line for line in listed.stdout.splitlines() if re.fullmatch(r"(?:Test|Fuzz|Example)\w*", line)]
    return next((n for n in names if n.startswith("Test")), names[0] if names else None)


def _package_of(program: str) -> str:
    """A .go file that shares its directory with other Go files is one file of a package: build the package."""
    if not program.endswith(".go") or program.endswith("_test.go"):
        return program
    home, name = os.path.split(program)
    others = [n for n in os.listdir(home or ".") if n.endswith(".go") and n != name and not n.endswith("_test.go")]
    return home if others else program


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

LIST_TIMEOUT = 180.0  # `go test -list` builds the test binary first

LISTENING = re.compile(r"listening at:?\s*\[?(?P<host>[\w.:]+?)\]?:(?P<port>\d+)")

DELVE = DelveProfile(
    name="delve",
    adapter_id="delve",
    language="go",
    extensions=(".go",),
    tools=(DLV, GO),
    build_failure_markers=("Build error", "build failed", "could not build"),
    launch_timeout=180.0,
    entry_function="main.main",
    inferior_depth=1,  # dlv runs the program it built as its own child
    steady_ids=True,
    path_map=PathMapSpelling("substitutePath", local="from", remote="to"),  # from the client's path to the debugger's
    guesses_total_frames=True,
    stop_text_detail=True,
    failed_command_stop="runtime error",  # e.g. a step out of the vDSO a pause landed in: "input/output error"
    lists_every_thread=False,
    runtime_frames=re.compile(r"runtime\."),
    exit_pattern=re.compile(r"Process \d+ has exited with status (?P<code>-?\d+)"),
    log_prefix=r"> \[Go \d+\]: ",
    threads_named_by_runtime=True,
    sets_in_top_frame_only=True,
    tests=TestRunner("go test", nothing_selected_text=re.compile(r"^testing: warning: no tests to run$", re.M)),
    # `dlv config` would change Delve's settings behind dap2mcp's back (substitutePath: the paths it shows,
    # stackTraceDepth, hideSystemGoroutines: the stacks and threads it reads); help, sources and the list pass
    console_prefix="dlv ",
    console_reads=frozenset({"help", "h", "sources", "s", "config -list"}),
    console_instead=((frozenset({"config"}), "`debug` (dap2mcp sets Delve's configuration; `dlv config -list` "
                                             "shows it)"),),
    program_categories=("stdout", "stderr"),  # Delve's own messages are "console"; its debuggee writes to dlv's stdio
    own_log_lines=re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d) "
                             r"(?:debug|info|warning|error|fatal|panic) layer=\w+ .*\n?", re.MULTILINE),
    console_noise=re.compile(r"^(Type 'dlv help' for list of commands\.|Detaching.*|Process \d+ has exited with status -?\d+)\n",
                             re.MULTILINE),
)
