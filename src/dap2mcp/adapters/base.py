"""What the session needs to know about a debug adapter, as data plus a few hooks."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..errors import DebugError, ErrorCode
from ..processes import killed_by
from . import system_packages, tool_dir
from .build import build
from .thread_states import ThreadReport

if TYPE_CHECKING:
    from collections.abc import Callable

Mode = Literal["source", "binary", "test", "attach", "connect", "core"]
LAUNCHES = ("source", "binary", "test")
OWN_PRINT = "dap2mcp:"
"""How each line a debugger command of dap2mcp's own prints begins (lldb's `script print`): lldb-dap forwards what
they print as the program's output too, which keeps such lines out of it (`AdapterProfile.output.own_log_lines`)."""
_OWN_PRINTS = re.compile(rf"^{OWN_PRINT}[^\n]*\n", re.MULTILINE)
"""The modes in which dap2mcp starts the program (and so may end it), rather than reaching one that runs."""


@dataclass(frozen=True)
class Interpreter:
    """The interpreter a launched program runs on, where the profile chooses one (Python's), and how it was chosen
    (the agent's `python`, the project's virtualenv, ...): the agent is told, since a wrong one fails far from here
    (a module not found, another version's behaviour)."""

    path: str
    chosen: str


def parse_address(address: str) -> tuple[str, int]:
    """'host:port' or '[v6]:port' to a (host, port) pair."""
    host, sep, port = address.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"address must be host:port, got {address!r}")
    return host, int(port)


@dataclass(frozen=True)
class Target:
    """What the user asked to debug, independent of any adapter."""

    mode: Mode
    path: str | None = None
    module: str | None = None
    process_id: int | None = None
    address: tuple[str, int] | None = None
    """Where an adapter already listens (mode `connect`)."""
    args: tuple[str, ...] = ()
    cwd: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    stop_on_entry: bool = False
    record: bool = False
    """Record the program from its first stop, to go back through (`ReverseRules`)."""
    python: str | None = None
    tcp_nodelay: bool = True
    just_my_code: bool = True
    """Stepping stays in the program's own code and passes over library code (debugpy's justMyCode)."""
    children: bool = True
    """Debug the program's child processes as sessions of their own, where the adapter follows them
    (`AdapterProfile.program.follows_children`); `childProcesses: false` lets them run undebugged."""
    program: str | None = None
    """The executable actually run: `path` itself, or what `path` was compiled into."""
    main: str | None = None
    """The program's own entry function, where it has one (`main`, `<crate>::main`), found by `ready`."""
    entry_line: tuple[str, int] | None = None
    """Where `stopOnEntry` stops in a program without an entry function (a script): the file and line of its top
    level's first statement, found by `ready` where the adapter's own entry stop would come later."""
    library: tuple[str, ...] = ()
    """Directories of the language's own library (Go's GOROOT), found by `ready`: code there is not the
    program's, so a pause or a crash inside it is shown at the program's frame that called it."""
    core: str | None = None
    """Mode `core`: the core file of the program `path` names, read instead of a running program."""
    test: str | None = None
    """Mode `test`: which tests of `path` to run, by name, as the test runner's own filter takes it."""
    runner: str | None = None
    """Mode `test`, where the profile chooses among test runners (Node's: node:test, mocha): the one chosen, by
    `prepare`. Kept by the child sessions the run's processes are (mode `attach`), which stop where it fails a test."""
    not_run: tuple[str, ...] = ()
    """Mode `test`: what the runner would run besides the program debugged, in the agent's words (the other
    test binaries of a Cargo project with tests selected), found by `ready`."""
    bin: str | None = None
    """Mode `source` with a Cargo project: which of its binaries to build and run (cargo's `--bin`)."""
    main_class: str | None = None
    """Java: the class whose `main` runs: the agent's `mainClass`, else found by `prepare` (a jar's manifest, the
    one class of a Maven project or a file that has one)."""
    classpath: tuple[str, ...] = ()
    """Java: the class path the program runs with: the agent's `classpath`, with what `prepare` built or found."""
    sources: tuple[str, ...] = ()
    """Java: the folders a class's source file is looked for in (a package's root, Maven's `src/main/java`), found
    by `prepare`."""
    templates: Literal["django", "jinja"] | None = None
    """Python: the template engine the program renders with, found when the session is made (`settled`); debugpy stops at breakpoints
    in template files of one engine only, armed at launch."""
    package_dir: str | None = None
    """A Go package's directory, found by `prepare` from `path` (a module's root, a workspace): where it was built
    and where the program (its tests) runs unless `cwd` says otherwise."""
    fetch_within: float | None = None
    """The call's `timeout`: the most a build that fetches dependencies over the network (Go's modules) may
    take, since a module proxy that does not answer holds it without end."""
    path_mappings: tuple[tuple[str, str], ...] = ()
    """(local, remote) pairs for a program that runs elsewhere: the agent's absolute path here, and the same
    file or directory as the program names it (see `mapped`)."""
    interpreter: Interpreter | None = None
    """The interpreter that runs the program, chosen once per `debug` by the profile's `settled`, so that the
    launch, the checks before it and the answer all name the same one."""

    @property
    def name(self) -> str:
        """What the agent calls the program: its path or module, else the process or address it was reached at."""
        if self.path or self.module:
            return self.path or f"-m {self.module}"
        if self.process_id is not None:
            return f"process {self.process_id}"
        return f"{self.address[0]}:{self.address[1]}" if self.address else "?"

    @property
    def launched(self) -> bool:
        return self.mode in LAUNCHES

    @property
    def file(self) -> str | None:
        """The file or directory `path` names: in mode `test` a pytest node id names its file before `::`."""
        if self.mode == "test" and self.path and "::" in self.path:
            return self.path.split("::", 1)[0]
        return self.path

    def with_args(self, args: list[str] | None) -> Target:
        return self if args is None else replace(self, args=tuple(args))

    @property
    def files_from(self) -> str:
        """The directory a relative file argument is read from, and below which results name files
        relative to it: `cwd`, else the server's own working directory."""
        return os.path.abspath(self.cwd or os.getcwd())

    def absolute(self, path: str) -> str:
        return os.path.abspath(os.path.join(self.files_from, os.path.expanduser(path)))

    def mapped(self, mappings: list[tuple[str, str]]) -> Target:
        """This target with path mappings, each local path made absolute as a file argument is, the longest
        first: adapters take the first mapping that holds a path, so a directory mapped inside another
        (a library's copy within the agent's checkout) must come before it, whatever order they were given in.
        Neither path keeps a trailing separator: Delve substitutes prefixes as text, and `/src/` for `/src`
        would give `/src//main.go`."""
        pairs = [(self.absolute(local), _without_trailing_separator(remote)) for local, remote in mappings]
        return replace(self, path_mappings=tuple(sorted(pairs, key=lambda pair: len(pair[0]), reverse=True)))

    def remote_path(self, path: str) -> str:
        """A local file's path as the program names it, by the first mapping that holds it, as the adapter
        maps it (the path itself where none does). The adapter translates what it is given; this is for what
        it is not."""
        for local, remote in self.path_mappings:
            if path == local or path.startswith(os.path.join(local, "")):
                return remote + path[len(local):]
        return path


def _without_trailing_separator(path: str) -> str:
    return path.rstrip("/\\") or path[:1]


@dataclass(frozen=True)
class PathMapSpelling:
    """How an adapter takes path mappings in its launch and attach arguments: under `key`, one item per
    mapping, either an object whose `local` and `remote` name its fields (debugpy's `localRoot`, `remoteRoot`)
    or, where they are numbers, a list with the paths at those places (lldb-dap's `[remote, local]`). Where
    `key` is None the adapter takes one mapping only, its two fields among the arguments themselves (js-debug's
    `localRoot` and `remoteRoot`)."""

    key: str | None
    local: str | int
    remote: str | int

    def spell(self, local: str, remote: str) -> dict[str, str] | list[str]:
        if isinstance(self.local, int) and isinstance(self.remote, int):
            pair = ["", ""]
            pair[self.local], pair[self.remote] = local, remote
            return pair
        return {str(self.local): local, str(self.remote): remote}


@dataclass(frozen=True)
class Summon:
    """A debug server to put into a running process once the adapter listens for it (attach by pid
    done by dap2mcp rather than by the adapter)."""

    event: str
    """The adapter's event that says where it listens: its body has `host` and `port`."""
    inject: Callable[[str, int], None]
    """Blocking: makes the process connect to host:port, or raises DebugError."""
    process_id: int
    """The process that must be the one to connect (the adapter takes the first that does)."""


@dataclass(frozen=True)
class AdapterStart:
    """How to reach the adapter and what to send it to begin debugging.

    Three ways in: `argv` alone speaks DAP on its stdio; `argv` with `listen` prints the address
    it listens on (matched by `listen`'s groups host, port); `address` alone is already listening.
    """

    argv: list[str]
    request: Literal["launch", "attach"]
    arguments: dict[str, Any]
    env: dict[str, str] | None = None
    listen: re.Pattern[str] | None = None
    listen_on: Literal["stdout", "stderr"] = "stdout"
    """Where the adapter prints the address it listens on (rdbg: stderr)."""
    address: tuple[str, int] | None = None
    cwd: str | None = None
    """Where the adapter itself runs (Delve builds the program there, so it must be the Go module's)."""
    summon: Summon | None = None
    output_fifo: str | None = None
    """Where the program's stdout and stderr go, when not through the adapter (see program_pipe.py)."""


@dataclass(frozen=True)
class Tool:
    """A program a profile needs, and how `doctor` reports it."""

    role: str
    """What it is for: "adapter", "debugger", "compiler"."""
    commands: tuple[str, ...]
    """Names or absolute paths to try, first found wins; a name is looked for in dap2mcp's tool directory
    (`tool_dir`), then on PATH."""
    version_argv: tuple[str, ...] = ("--version",)
    version_command: tuple[str, ...] = ()
    """A whole command that tells the version, where the tool itself cannot (lldb-dap, js-debug); `{path}` in it
    stands for where the tool was found."""
    fetch: str = ""
    """The name `dap2mcp install` fetches it by (`node` for js-debug), where a registry package provides it."""
    package: str = ""
    """Else the system's packages that provide it, as Debian names them (`system_packages`)."""
    note: str = ""
    """Said after how to install it (another way, what it is for); alone where neither of the above applies."""
    label: str = ""
    """Its name in `doctor`, where the command is not it (debugpy runs on this interpreter)."""
    script: bool = False
    """The command is a file that an interpreter runs (js-debug's `vsDebugServer.js`): found when it is there,
    executable or not."""

    unfit: Callable[[str], str | None] | None = None
    """Why the program found cannot serve on this machine (a Delve too old for the machine's Go), or None where
    it can: `doctor` reports it as missing; the profile refuses a `debug` it would fail (Delve's: before a build)."""

    def find(self) -> str | None:
        for command in self.commands:
            if os.path.sep not in command:
                found = tool_dir.installed(command) or shutil.which(command)
            else:
                found = command if os.access(command, os.R_OK if self.script else os.X_OK) else None
            if found:
                return found
        return None

    def require(self, profile: str) -> str:
        found = self.find()
        if found is None:
            raise DebugError(ErrorCode.ADAPTER_NOT_FOUND, f"{profile} needs {self.label or self.commands[0]} "
                             f"({self.role}), which is not installed; install it with: {self.install} "
                             "(or run `dap2mcp doctor`)")
        return found

    @property
    def install(self) -> str:
        """How to install it on this machine: `dap2mcp install …` where dap2mcp fetches it, else the package
        manager's command, else the note alone."""
        how = f"dap2mcp install {self.fetch}" if self.fetch else \
            system_packages.install_command(self.package.split()) if self.package else ""
        return f"{how}  ({self.note})" if how and self.note else how or self.note


@dataclass(frozen=True)
class Compiler:
    """How mode `source` turns a source file into an executable to debug."""

    tool: Tool
    argv: tuple[str, ...]
    """Arguments after the compiler, with {source} and {output} filled in."""


@dataclass(frozen=True)
class FunctionFilter:
    """An exception filter the adapter lacks, made of a breakpoint on the function the language's runtime calls
    when the program fails that way (Rust's `rust_panic`); on by default, like the adapters' uncaught ones."""

    filter: str
    label: str
    function: str
    message: re.Pattern[str] | None = None
    """Finds what the runtime printed before calling `function`: the group `message` says why, `place` where."""
    again_from: re.Pattern[str] | None = None
    """A caller of `function` that reports the failure already stopped at once more (Go's `Fail` calling itself for
    the parent test): a stop with it below is gone on from."""
    place: tuple[str, int] | None = None
    """Where the adapter takes no function breakpoints (js-debug): a line of a file of dap2mcp's own that the program
    is made to run where it fails that way (a test runner's failure, node_test_failure.cjs), breakpointed instead."""
    report: str | None = None
    """An expression evaluated at the stop (at `place`) whose value, JSON, says what failed instead of `message`:
    `message`, and `frame` (`file`, `line`, `column`, `function`): where in the program's own code it failed."""


_ESCAPED_SYMBOL = re.compile(r"[\w.:$]*\$(?:LT|GT|RF|BP|SP|LP|RP|C|u[0-9a-f]{2})\$(?:[\w.:$]*[\w$])?")
"""A symbol in an adapter's words that holds a legacy mangling escape (`$u7b$`), up to its last letter or `$`."""


@dataclass(frozen=True)
class ValueShapes:
    """How an adapter writes values that hide their contents, so that a context can show a value's first
    level inline (`session.stop.preview`): lldb-dap writes a struct as `account @ 0x7ff…` and a vector as
    `size=3`, cdt-gdb-adapter a struct or a C++ container as `{...}` and an array as `[64]` or its address."""

    opaque: re.Pattern[str] | None = None
    """Values that say nothing but a type or an address: the first level is shown instead."""
    bare: re.Pattern[str] | None = None
    """Values that give a count or an address but not the contents: the first level is shown after them."""
    null_member: str | None = None
    """What the adapter writes for each member of what a NULL pointer points to (lldb: `<error: parent is NULL>`):
    a preview says `NULL` once instead."""
    opaque_types: re.Pattern[str] | None = None
    """Types whose values say nothing of the contents whatever they read (gdb writes a local array as its address)."""
    printer: tuple[str, str] | None = None
    """A request, and the command it carries, that prints a value with the debugger's own printers, where its
    children do not show the contents (cdt-gdb-adapter gives a C++ container no children although gdb's
    pretty printers know them). `{thread}`, `{frame}` (the frame's place in its stack) and `{expression}`
    (quoted) are filled in; the answer's `body.result.value` is the text."""
    printed_struct: re.Pattern[str] | None = None
    """How the debugger writes a struct in full (gdb: `{name = "…", count = 1}`): past a preview's length its first
    long field took all of the text shown (`*it` with a 300-character name showed nothing else), so a preview of
    its members, each bounded, stands instead."""
    owner_print: re.Pattern[str] | None = None
    """A print of the debugger's (`printer`) that gives only the address a smart pointer owns (gdb's
    `std::unique_ptr<Point> = {get() = 0x…}`): what it points to is printed too, after ` -> `."""
    toolchain_globals: re.Pattern[str] | None = None
    """Names in a Globals scope that belong to the language's library, not the program (libstdc++'s
    `std::__detail::_Prime_rehash_policy::_S_growth_factor`, Rust's vtables): left out of a context."""
    unordered: frozenset[str] = frozenset()
    """Types of containers whose members the adapter names by something of its own (debugpy: a set's by their
    `id()`, other in every run): a snapshot names them by their value, so that the same members compare equal."""
    callables: frozenset[str] = frozenset()
    """Types of the methods the adapter lists among an object's attributes (debugpy lists those whose names start
    with `_` with the state, `_make_cancelled_error`): a snapshot and an expanded `evaluate` leave such attributes out,
    since they are the class's, not the object's, and a bound method's text repeats its owner's, so that it changes
    whenever the owner does. An item of a list or a dict is kept whatever its type. An attribute whose
    `presentationHint` kind is `method` is left out under every adapter."""
    elided: re.Pattern[str] | None = None
    """Text the adapter writes where a value leaves its contents out (debugpy: `[...]` past two levels of nesting,
    a trailing `...` past 60 items, an object's default `<Order object at 0x…>`): `evaluate` names such parts and
    how to expand them (`leftOut`)."""


@dataclass(frozen=True)
class FunctionPlace:
    """A function breakpoint as the adapter is to be given it."""

    name: str
    """The name sent (debugpy: `loads` for `json.loads`)."""
    file: str | None = None
    """The file the function is defined in, where it must be made the program's own for the adapter to stop."""
    line: int | None = None
    """Where the adapter never sees the function called (debugpy: a generator or `async def` function), the
    first line of its body: the breakpoint is sent as a line breakpoint there instead."""
    first_pass: str | None = None
    """With `line`: a condition true only when a call first gets there (not when a loop or a resumption of
    the function comes back to it)."""


@dataclass(frozen=True)
class OwnFrame:
    """A line that runs in a frame of its own besides the frame of the code around it (a comprehension's, at
    each item), where the adapter stops in both: a breakpoint there is meant for the frame around it."""

    lines: Callable[[str], frozenset[int]]
    """The lines of a file (by path) that run in two frames."""
    test: str
    """An expression true only in the frame around them, put before the breakpoint's condition."""


@dataclass(frozen=True)
class TestRunner:
    """How a language's tests are run under its debugger (`debug` mode `test`), and how the run stops where a
    test fails rather than where the runner reports it: the runner catches every failure, so no "uncaught"
    exception ever stops the program by itself. Where the runner fails a test through a function of its own (Go's
    `testing.(*common).Fail`), that is an exception filter of the profile's (`function_filters`)."""

    runner: str
    """The runner, in the agent's words ("pytest", "go test")."""
    stop_filters: tuple[str, ...] = ()
    """Exception filters turned on for the run (debugpy's `userUnhandled`: an exception that leaves the
    project's code for the runner's)."""
    failure_check: str | None = None
    """An expression, evaluated in the stopped thread at an exception stop, that is `False` where the exception
    fails no test (a skip, an expected failure, one a `pytest.raises` caught): the run goes on."""
    records_failures: bool = False
    """The run stops where the runner records a test's failure (a function filter's: the JavaScript runners'
    `testFailure`), so an exception stop in library code (`AdapterProfile.library_files`: the runner's own, as
    jest-circus rejecting a failed test's promise before anything awaits it, which V8 takes for unhandled) fails no
    test by itself: the run goes on to that stop."""
    nothing_selected_exit: int | None = None
    """The runner's exit code when its filter selected no test (pytest's 5)."""
    nothing_selected_text: re.Pattern[str] | None = None
    """What the runner prints when its filter selected no test (go test's "no tests to run")."""


@dataclass(frozen=True)
class LaunchRules:
    """How the program is built, started and reached: the tools and compilers it needs, the launch's own requests, its entry, and how its paths map."""

    compilers: dict[str, Compiler] = field(default_factory=dict)
    """Source extension → the compiler mode `source` runs before debugging."""
    build_failure_markers: tuple[str, ...] = ()
    """Texts in a failed launch's message by which the adapter says its own build of the program failed."""
    start_failure_markers: tuple[str, ...] = ()
    """Output texts by which an adapter says it failed to start, when it never answers instead."""
    project_tools: tuple[Tool, ...] = ()
    """What a language's projects are built with (cargo, for a Cargo project in mode `source` or `test`):
    needed only where such a project is debugged, so `doctor` lists them and nothing else requires them."""
    tests: TestRunner | None = None
    """How this adapter runs the language's tests (mode `test`); None where it cannot."""
    launch_timeout: float = 30.0
    """How long the launch may take: longer where the adapter builds the program first (Delve)."""
    entry_function: str | None = None
    """Where `stopOnEntry` stops: the program's own entry, not the loader's (native and Go adapters)."""
    terminal_output: bool = False
    """The debuggee writes to a pseudo-terminal, so its lines end in CRLF."""
    quiet_start: bool = False
    """Drop what the adapter prints before the program runs (gdb's banner and its console advice)."""
    configuration: tuple[tuple[str, dict[str, Any]], ...] = ()
    """Requests of the adapter's own, sent with the breakpoints before `configurationDone`."""
    plans_before_ready: bool = False
    """Its `plan` needs nothing that `ready` finds, so a launch's adapter is started and initialized while
    `ready` still checks the runtime (debugpy: the interpreter's check, 0.1 s through a pyenv shim, costs
    no time of its own). Not the native profiles and Delve, whose plans take the built program."""
    reads_cores: bool = False
    """It opens a core file with the executable it is of (mode `core`): lldb-dap, gdb, Delve."""
    core_stop_told: bool = True
    """It tells a core's state as a `stopped` event (lldb-dap). Not cdt-gdb-adapter (its `configurationDone` fails:
    "The program is not being run.") nor Delve: dap2mcp makes that stop itself, at the core's first thread."""
    core_signal: str | None = None
    """An expression, in that thread's top frame, for the number of the signal that ended the program (gdb's
    `$_siginfo`), where the adapter does not say it."""
    path_map: PathMapSpelling | None = None
    """How the adapter takes `pathMappings` (see `PathMapSpelling`); None where it has no such argument."""
    no_path_map: str = "this adapter has no path mappings"
    """Why `pathMappings` is refused, where `path_map` is None."""


@dataclass(frozen=True)
class ProgramRules:
    """The program's processes as the adapter runs them: where the program runs below it, its children, its end and exit code, and how the adapter answers."""

    exit_pattern: re.Pattern[str] | None = None
    """Where the adapter sends no `exited` event: output giving the exit code (group `code`, none meaning 0;
    or group `signal`, a fatal signal's name, as the shell reports it: 128 + its number)."""
    exit_code_base: int = 10
    exit_in_output_ends: bool = False
    """The exit text is all the adapter says of the end (no `terminated` either, after a fatal signal)."""
    inferior_depth: int | None = None
    """Generations below the adapter's process at which a launched program runs (gdb's: node, gdb, the
    program). The program can print the exit text too: while it still runs there, the text is its own."""
    lists_all_children: bool = False
    """A `variables` request without `count` gets every child of the value, however many (lldb-dap: five
    million for a `Vec` of that size, in one reply that takes minutes): a snapshot asks for a page."""
    follows_children: bool = False
    """The adapter announces each child process of the program with the `startDebugging` reverse request,
    to be debugged over a connection of its own (debugpy's `subProcess`): the debugger makes it a session."""
    ends_program: bool = True
    """`disconnect` with `terminateDebuggee` ends a launched program. Not js-debug's vendored copy, which lacks
    the script it kills with and never answers: dap2mcp ends the program it started (`runInTerminal`) itself."""
    program_in_child: bool = False
    """The first connection only launches: the adapter announces the program itself as the first child
    (js-debug). That child's session is the program's (its output and exit code, which reach the first
    connection, are that session's too; stopping or restarting it stops or restarts the first): see
    `session.program.children`."""
    adapter_is_program: bool = False
    """The adapter runs in the program's own process (rdbg): its exit status is the program's exit code, which it
    sends no `exited` event for."""
    untrue_capabilities: frozenset[str] = frozenset()
    """Capabilities the adapter announces and does not have (rdbg 1.4.0's `supportsFunctionBreakpoints`: it answers
    `setFunctionBreakpoints` and sets nothing), taken as not announced."""
    answers_in_turn: bool = False
    """The adapter answers one request at a time, in the order they came (lldb-dap, gdb): a request it has not
    answered past its timeout (a value its formatters cannot read, a called function still running) holds
    every later one behind it."""


@dataclass(frozen=True)
class OutputRules:
    """Which output is the program's and which the adapter's own, and what is taken out of it."""

    console_noise: re.Pattern[str] | None = None
    """Lines from the adapter itself that say nothing about the program, or what the result says anyway (the
    end-of-program line: its exit code is read from the adapter's text before this is cut)."""
    own_categories: tuple[str, ...] = ("console",)
    """Output categories in which the adapter speaks for itself, where `console_noise` applies."""
    launcher_frames: re.Pattern[str] | None = None
    """The `File` line of a traceback entry that is the launcher's, not the program's (debugpy's and runpy's
    seven frames below a Python program's own): cut from its output, with the entry's source lines."""
    program_categories: tuple[str, ...] | None = None
    """Output categories that carry the program's output; what comes in the others is the adapter's own
    (its warnings, errors and console), kept apart as `adapterOutput`. None: every category may be the program's."""
    own_log_lines: re.Pattern[str] | None = None
    """Lines of the adapter's own log that arrive mixed with the program's output (Delve's `error layer=dap`
    on the stderr it shares with its debuggee)."""
    output_mark: str | None = None
    """An expression, evaluated in the stopped frame, that writes the text `{mark} % fd` (a string literal
    holding `%d`, filled in with the file descriptor) to the first of the program's fds 1 and 2 that is the pipe
    the adapter reads and would take it without blocking, and gives that fd (or nothing): once the mark is back,
    what the program wrote before it is all in (see session/output/marks.py). Only in a program dap2mcp launched."""


@dataclass(frozen=True)
class StopRules:
    """What a stop, its frames and threads, and a step look like from this adapter."""

    stray_step_stops: bool = False
    """After a step cut short by a breakpoint, the adapter later reports the abandoned step as a stop of its own."""
    frame_mark: re.Pattern[str] | None = None
    """What the adapter appends to a frame's name, in frames and exception traces (debugpy's
    ` (Current frame)`)."""
    exception_note: re.Pattern[str] | None = None
    """A note the adapter appends to an exception's type, with the frame the program is paused in as the
    group `frame` (debugpy at an exception that has left the frames above it)."""
    symbol_suffix: re.Pattern[str] | None = None
    """What to cut from function names in stack frames (Rust's `::h<hash>` disambiguators)."""
    runtime_frames: re.Pattern[str] | None = None
    """Functions of the language's runtime that an exception or a pause stops in (Go's panic machinery,
    its scheduler): the context focuses on the first frame of the program's own, where the variables that
    matter are."""
    lists_every_thread: bool = True
    """Its `threads` answer names every thread, so an id not in it is unknown (Delve's stops at 1024
    goroutines, and while the program runs names only a placeholder)."""
    stops_every_thread: bool = True
    """A stop holds every thread. Not pydevd's: it suspends a thread only between two lines of its Python code,
    and one blocked inside a call into C (a lock's acquire, a sleep, a read) runs on (`running_threads`)."""
    bottom_files: tuple[str, ...] = ()
    """Where the runtime's own code is that calls the program's outermost frame (Node's module loader,
    `<node_internals>/...`): frames from there at the bottom of a stack are cut, as frames below `main` are."""
    guesses_total_frames: bool = False
    """`totalFrames` is an estimate when a stack has more frames than asked for (Delve: 53 for 4)."""
    stack_page: int | None = None
    """The most frames one `stackTrace` answer gives, and the most it counts (cdt-gdb-adapter: 100, as
    `totalFrames: 100` for a stack of 501): deeper stacks are read page by page (`startFrame`)."""
    stop_text_detail: bool = False
    """A stop's `text` says what its `description` only names (Delve: "fatal error", then "all goroutines
    are asleep - deadlock!"), and the adapter may have no `exceptionInfo` to say it instead."""
    return_value: re.Pattern[str] | None = None
    """A variable the adapter lists in the caller's frame once a function has returned, naming the function
    (debugpy's `(return) total`): taken out of the scopes into the context's `returned` at the stop of the step
    that made it, and left out elsewhere (debugpy keeps it listed until the next return)."""
    untold_texts: tuple[tuple[str, str], ...] = ()
    """(description, expression): a stop so described whose `text` the adapter left out has it read by evaluating
    the expression in the stopped thread's top frame, where it gives a string (Delve 1.27 on Go 1.26: a test's
    panic, re-panicked by the testing package with the same value, heads a chain whose head the runtime does not
    turn into its message; the next link holds it)."""
    failed_command_stop: str | None = None
    """The description of a stop the adapter sends when it could not carry out a step or a `continue` (Delve:
    "runtime error", the error as its text, where a program's own panic is "panic"): not the program's
    exception, but the command's failure; the program is where that stop shows it."""
    own_numbering: re.Pattern[str] | None = None
    """A stop description that only gives the adapter's own breakpoint numbers (lldb: "breakpoint 4.1")."""
    entry_pause: bool = False
    """With `stopOnEntry` the profile has the adapter hold the program where it starts, and the first stop, a
    `pause`, is the entry stop (rdbg, asked to `attach` to the program it holds at its first line: a breakpoint
    there would come too late)."""
    unasked_pause: tuple[str, re.Pattern[str]] | None = None
    """(description, statement): how the adapter describes a pause that neither the agent nor a breakpoint asked
    for, and the statement in the program's code that asks for one. js-debug says "Paused on debugger statement"
    for V8's every such pause, among them, under load, a new process's pause at its first statement, which
    js-debug means to go on from itself: such a stop is the program's only on a line with the statement."""
    symbol_escapes: tuple[tuple[str, str], ...] = ()
    """Escapes left in function names the adapter's demangler does not finish (Rust's legacy `$LT$` for `<`)."""
    exception_category: str | None = None
    """The root of the adapter's exception paths (`exceptionOptions`), where it takes exception types."""
    exception_modes: tuple[tuple[str, str], ...] = ()
    """Exception filter id → DAP break mode, to express a filter as exceptionOptions."""
    uncaught_unwound: bool = False
    """An uncaught exception stops once it has left every frame (pydevd): `finally` blocks and context
    managers' exits have run by then, which the stop says, as their effects show in the values."""
    own_frame: OwnFrame | None = None
    """Lines another frame runs too (a Python comprehension's), and how a condition tells the line's own frame."""
    steady_ids: bool = False
    """The ids of a stop's first reads often repeat at the next stop (debugpy keeps them per frame;
    lldb-dap numbers frames by position and scopes by kind; Delve starts its handles afresh at each
    stop), an id means what it means when the adapter handles the request, and requests are handled
    in the order they come: a stop's scopes and variables are then asked for together with its stack,
    on the last stop's ids (see `session.stop.inspect.Guess`). Not cdt-gdb-adapter: it handles requests
    concurrently."""
    threads_named_by_runtime: bool = False
    """It names a thread by the function at the top of its stack, the runtime's for one that waits (Delve's
    goroutines: `runtime.gopark`, `sync.runtime_SemacquireMutex`): `context` says where in the program's own
    code each listed thread is (`Thread.at`), a short stack read each."""
    step_ready_check: str | None = None
    """An expression, evaluated in the stopped frame, that is `False` when thread `{thread}` cannot take a step
    now. pydevd carries out a step on the stepped thread itself: a thread blocked in native code (a
    `lock.acquire`, a `future.result()`) would take it only once it runs Python again, holding every other
    thread until then."""
    disassembly_offset_counted_here: bool = False
    """`disassemble`'s `instructionOffset` is counted by dap2mcp, not sent: lldb-dap 19 takes it as bytes (an offset
    lands inside an instruction), cdt-gdb-adapter 1.7 ignores a positive one and answers more instructions."""
    step_in_leaves_sourceless: bool = False
    """`step in` can stop in code whose source is not here (gdb enters glibc's `strlen` assembly, whose line table
    it reads; lldb-dap passes over it): such a stop is stepped back out of, and the step goes on."""
    steps_over_library: bool = False
    """`step in` passes over what the adapter counts as library code (debugpy's justMyCode), and stops at the next
    line of the program's own: the step's result says which calls it passed over."""


@dataclass(frozen=True)
class EvaluationRules:
    """Reading and changing the paused program's state: scopes, variables, evaluations and assignments."""

    evaluate_context: str = "repl"
    """The `evaluate` context that gives a plain value (lldb-dap's repl prints `(type) $1 = value`)."""
    scopes_on_request: frozenset[str] = frozenset()
    """Scopes (by lower-cased name) a stop names but does not list, since they are the same at every stop
    of a module and large (Python's module globals: a library's regexes and typing aliases, 3.5 KB a stop);
    `context` lists them when asked."""
    library_scopes: re.Pattern[str] | None = None
    """Scopes (by lower-cased name) a stop in library code names but does not list, and the outermost of them
    (a module's) in the program's own code too: js-debug's closures, where a library's module closure holds
    each of its functions with its source (lodash: 50 a scope, 29 KB a step). `context` lists them when asked."""
    top_level_scopes: frozenset[str] = frozenset()
    """Scopes (by lower-cased name) the adapter marks expensive that hold a module's top-level variables: listed at a
    stop in the top level itself, named only in the module's functions (js-debug's `Module` of an ES module, which
    V8 gives every frame in the module; at the top level it is the frame's own, after blocks' scopes)."""
    hidden_variables: frozenset[str] = frozenset()
    """Children the adapter adds for display (groupings, computed lengths) that are not program state."""
    capture_helper: str | None = None
    """A module in this package that the debuggee can run (via `evaluate`) to expand variables in one reply."""
    cut_markers: frozenset[str] = frozenset()
    """Names of the child an adapter appends where it stopped listing a container's items."""
    failed_evaluations: tuple[str, ...] = ()
    """Results an adapter gives with `success: true` when the expression could not be evaluated."""
    explain_failure: str | None = None
    """An `evaluate` expression that makes the debugger say why an expression failed or gave no value, its
    `{expression}` escaped as inside a C string (cdt-gdb-adapter: `>print {expression}`, whose error is
    gdb's own, where its evaluation answers only "could not evaluate expression")."""
    unlisted_scope: re.Pattern[str] | None = None
    """The adapter's refusal to list a scope that the debugger's own commands (`list_commands`) can list."""
    scope_assignments: tuple[tuple[str, str], ...] = ()
    """Scope name → the expression that names a variable of that scope from inside the frame (`{name}`
    is filled in), for `setExpression`. An assignment to the bare name would bind a new local
    instead, as `COUNTER = 42` does in a Python function."""
    assignment: str | None = None
    """An assignment in the program's language (`{target}` and `{value}` filled in), evaluated to set what
    no scope's variables reach: a global the adapter lists in no scope (gdb), an element at a computed
    index, `*p`. Only where evaluating it does just that assignment (C: the debugger runs it itself)."""
    scopes_by_frame: bool = False
    """A frame's scopes, references included, follow from the frame's id alone and the `scopes` request
    changes nothing (pydevd builds them from the id, the same each time): at a stop whose stack shows
    the last stop's frame, its scopes are not asked for again. Not lldb-dap, whose `scopes` request
    selects the frame that its fixed scope references then read, nor Delve, which hands out new
    references when the scopes are asked for."""
    scopes_copied_at_stop: bool = False
    """A scope's variables are copies the runtime took when the program stopped, not the frame's own (V8: the
    scope objects of `Debugger.paused`; neither an evaluation nor `Debugger.setVariableValue` changes them), so
    after an `evaluate` or `set-variable` at the stop, the listed values are read again by name in the frame
    (`OwnEvaluations.reread`). Not pydevd, lldb-dap, gdb or Delve, which read the frame at each request."""
    evaluation_limit: str | None = None
    """A statement, run in the stopped frame before an `evaluate`, that has the debugger interrupt the
    evaluation once it has run `{seconds}` (pydevd raises KeyboardInterrupt in the evaluating thread). Without
    one, an evaluation that runs on cannot be stopped from here: its call answers TIMEOUT and it runs on."""
    sets_in_top_frame_only: bool = False
    """A `setVariable` of an outer frame does not reach the program (Delve 1.20 wrote the innermost frame's variable
    of that name, go-delve/delve#3171; 1.27 reports the new value while the program goes on with the old): it is
    refused rather than reported as done."""


@dataclass(frozen=True)
class BreakpointRules:
    """What the adapter takes of a breakpoint and how it answers: conditions, hit counts, log messages, binding."""

    refused_condition_kept: bool = False
    """A line breakpoint whose condition the debugger refuses stays, without the condition, and the adapter
    answers it unverified (cdt-gdb-adapter inserts it, then fails to add the condition)."""
    places_a_line: bool = False
    """A line breakpoint may bind at several places of one function, each reached in one run of the line (lldb:
    a Rust `println!` line at three): a stop at a later place of the line a move left is gone on from."""
    unbound_messages: frozenset[str] = frozenset()
    """Messages the adapter gives a breakpoint it has not bound yet that say no more than that (js-debug's
    untranslated key `breakpoint.provisionalBreakpoint`): dap2mcp's own words on a pending breakpoint stand instead."""
    default_exception_filters: frozenset[str] = frozenset()
    """Filters of the adapter's that are on by default although it marks them off (js-debug's `uncaught`): a
    program stops where an error no code catches is thrown, as under debugpy, instead of ending with it."""
    function_answers_unordered: bool = False
    """The adapter answers `setFunctionBreakpoints` in an order of its own, not the request's (lldb-dap 19
    keeps the names in a hash map), so the answers are matched by id (see `Registry._sync_functions`)."""
    log_as_written: bool = False
    """The adapter writes a tracepoint's message as it is: no `{expression}` values, no line end
    (cdt-gdb-adapter 1.7.0)."""
    log_prefix: str = ""
    """A pattern for what the adapter writes before each log message (Delve: `> [Go 1]: `, the goroutine)."""
    log_tag: str = "\u2063"
    """The invisible character that brackets the tag dap2mcp puts before a tracepoint's message, to know it as one
    and count it (INVISIBLE SEPARATOR). js-debug cuts a worker thread's logpoint to latin-1 (U+2063 arrived as
    `c`), so the node profile takes a control character below U+0100."""
    logs_in_program_output: bool = False
    """The adapter's log messages are printed by the program itself, into the output dap2mcp reads from its pipes
    (js-debug's logpoints are `console.log` calls in the program): tracepoints are taken from that output. Each
    message then ends with `log_tag` too, so a message of several lines is known whole."""
    log_percent_formats: bool = False
    """The adapter builds a tracepoint's message with `%` formatting, so a literal `%` must be doubled."""
    changed_while_running: bool = True
    """The adapter takes a changed list of breakpoints while the program runs without a stop coming of it. Not
    lldb-dap 19 (the program stopped with `signal SIGTRAP`, or at `breakpoint 0.0`, on the line of a tracepoint
    removed while a thread was trapped at it: 37 runs of 218) nor cdt-gdb-adapter 1.7 (its own interrupt, to
    change them, came through as a stop with `SIGINT`, about once in 100 runs): a tracepoint that used up its
    `maxNotifications` while the program ran is left as it is, its messages dropped, and removed once the program
    has stopped, before it runs again."""
    hit_counts: tuple[tuple[str, str, int], ...] | None = None
    """Where the adapter reads a hit condition only as a number of hits to pass over, the forms it can take:
    (the operator an agent writes, "" for a bare N; the operator sent; what is added to N). Others it would
    drop without a word and stop at every hit (lldb-dap 19), or never set the breakpoint (cdt-gdb-adapter),
    so they are refused. None: it takes every form as written (debugpy)."""
    function_conditions: bool = True
    """It sets a function breakpoint's condition and hit condition (cdt-gdb-adapter 1.7 drops both, without a
    word, and stops at every call)."""
    counted_hits: str | None = None
    """An expression in the program's language that counts a hit of breakpoint `{key}` in the program itself
    and gives its number, sent inside the condition in place of a hit condition. For an adapter that stops
    when either the condition or the hit condition holds, and counts afresh whenever a file's breakpoints are
    sent again (pydevd): counted this way, both must hold, and an edit keeps the count."""
    statement_lines: Callable[[str, int], tuple[int, int] | None] | None = None
    """The lines of the statement a line of a file is in, where the adapter reports a step that comes back to
    the first line of a statement spread over several (Python's call, made at its first line) as a stop at the
    breakpoint there: such a stop is the step's."""
    binds_as_scripts_load: bool = False
    """A line breakpoint binds only once the adapter has seen its file's script loaded, and the adapter may never
    say it did (js-debug attached to a running Node answers every breakpoint as provisional, then stops at it):
    an attach counts each active line breakpoint as one that can stop the program, not only those verified."""


@dataclass(frozen=True)
class WatchRules:
    """Watches (data breakpoints): how one is named, set, and told apart at a stop."""

    watch_name: str = "{}"
    """What `dataBreakpointInfo` is given as `name` for a watched expression `{}`: the expression (cdt-gdb-adapter
    watches it as gdb's `watch` does), or its address where the adapter reads the name as one (lldb-dap 19)."""
    watch_stop: re.Pattern[str] = re.compile(r"^data breakpoint")
    """How a stop by a watch reads, as `<reason> <description>` (lldb-dap 19: `breakpoint watchpoint 1`)."""
    watch_stopper_command: str | None = None
    """A debugger command (run in the `repl` context) printing `watch 0x<address>`, the address of the watch that
    stopped the program, where the stop names the debugger's own number for it only (lldb-dap 19:
    `watchpoint 5`, a number that `setDataBreakpoints` never gave)."""
    watch_stopper_output: re.Pattern[str] | None = None
    """In the adapter's output at a stop, the adapter's id of the watch that stopped the program (gdb prints
    `Hardware read watchpoint 3: total`, 3 being the id cdt-gdb-adapter gave in `setDataBreakpoints`)."""
    watch_conditions: bool = True
    """The adapter honours a data breakpoint's condition and hit condition (cdt-gdb-adapter 1.7 drops them)."""
    line_before_command: str | None = None
    """A debugger command (run in the `repl` context) printing the source line of the instruction before the
    paused one, where `disassemble` names too few lines to find it (lldb-dap 19 names a line only where the
    disassembly starts on one)."""
    watch_instead: str = "stop at the lines that change it instead: a breakpoint with a condition on each"
    """What to do where the adapter has no data breakpoints: said with NOT_SUPPORTED."""


@dataclass(frozen=True)
class ConsoleRules:
    """The debugger's own commands: those `evaluate` passes on, and those that read memory."""

    address_of: str | None = None
    """An expression for the address of the value `{}` names, in the program's language (C: `&({})`): where
    `memory` reads for an `expression`."""
    address_said: re.Pattern[str] = re.compile(r"0x[0-9a-fA-F]+")
    """How the adapter writes that address, matched from the start of its answer (its group, where it has one)."""
    memory_command: str | None = None
    """Where the adapter has no `readMemory` (lldb-dap 19): a debugger command, run in the `repl` context, that
    prints `<address> <hex bytes>` for `{address}` and `{count}`, or `<address> error <why>`."""
    memory_expression: str | None = None
    """Where `readMemory` takes only the adapter's own references (Delve 1.27: a listed variable's, and only its
    bytes): an expression in the program's language whose value lists the `{count}` bytes at `{address}`, used
    in its place."""
    memory_instead: str = "read values with `evaluate` instead"
    """What to do where memory cannot be read at all: said with NOT_SUPPORTED."""
    console_prefix: str | None = None
    """What starts a debugger command in an `evaluate` expression (cdt-gdb-adapter: `>`), see `session.stop.console`."""
    console_reads: frozenset[str] = frozenset()
    """The debugger commands passed on, those that only read: first words, or whole leading words where one
    word would admit a command that also writes (Delve's `config -list` and not `config substitutePath ...`)."""
    console_prints: bool = False
    """A command's text comes on the adapter's console, its answer only a line end (cdt-gdb-adapter); else it
    is the evaluation's result (Delve's `dlv help`)."""
    console_writes: re.Pattern[str] | None = None
    """What in a passed command's expression writes to the program (gdb's `print n = 5` assigns): refused, as
    `set-variable` does that in the open."""
    console_instead: tuple[tuple[frozenset[str], str], ...] = ()
    """Refused commands (first words) → the tool that does what they would do."""
    list_commands: tuple[str, ...] = ()
    """Debugger commands (`console_prefix` and all) that print a frame's variables as `name = value` lines."""
    save_core: str | None = None
    """The debugger command (run in the `repl` context) that writes a core of the paused program to `{path}`
    (gdb's `gcore`); None where there is none."""
    save_core_instead: str = "open the program under adapter gdb to save a core (gcore)"
    """What to do where the adapter cannot save a core: said with NOT_SUPPORTED."""


@dataclass(frozen=True)
class ReverseRules:
    """Going back in time: recording the program, then stepping and continuing backwards through the recording.
    A command here is sent as an `evaluate` in the `repl` context (dap2mcp's own, not the agent's `>` list)."""

    record_on: str | None = None
    """Starts recording at a stop (gdb: `>record full`); None where the adapter cannot go back."""
    record_off: str | None = None
    """Stops recording and drops what was recorded."""
    record_limit: str | None = None
    """Sets how much the recording holds, `{limit}` (gdb: instructions); None where it cannot be bounded."""
    default_limit: int | None = None
    """What the recording holds when not told (gdb: 200,000 instructions)."""
    record_setup: tuple[str, ...] = ()
    """Commands sent once recording is on (gdb: software watchpoints, the only ones it checks backwards)."""
    record_teardown: tuple[str, ...] = ()
    """Commands sent once recording is stopped: what `record_setup` changed, back as it was."""
    record_env: tuple[tuple[str, str], ...] = ()
    """Environment a program started with `record: true` gets (gdb: glibc's AVX routines off, which gdb 13's
    recording cannot record)."""
    replaying: str | None = None
    """A command whose answer, matched by `replay_said`, says the program is in the recorded past."""
    replay_said: re.Pattern[str] | None = None
    step_back: str | None = None
    """One line back (gdb: `>reverse-next`); None: DAP `stepBack`."""
    step_back_answered: bool = True
    """The adapter answers a `stepBack` that moved the program (rdbg 1.4.0 answers only one it refuses)."""
    back_out: str | None = None
    """Back to the caller's line (gdb: `>reverse-finish`); None: not possible."""
    reverse_continue: str | None = None
    """Back to the previous stop or the recording's start (gdb: `>reverse-continue`); None: not possible."""
    watch_by_address: str | None = None
    """While recording, a watch is set on its place by address, `{type}` an integer type of its size from
    `sized_types` and `{address}` (gdb: a watch on a local's expression ends when its frame is left, going back too)."""
    sized_types: tuple[tuple[int, str], ...] = ()
    history_end: re.Pattern[str] | None = None
    """In the adapter's words at a stop: the move reached an end of the recording (its oldest instruction kept going
    back, its newest going forward)."""
    limit_passed: re.Pattern[str] | None = None
    """In the adapter's words at a stop: the recording passed its limit, its oldest part dropped (gdb answers its
    own `stop-at-limit` query itself, no terminal being there)."""
    record_failed: re.Pattern[str] | None = None
    """In the adapter's words at a stop: the recording stopped (an instruction it cannot record), with why."""
    cannot: str = ("it cannot go back in time; adapter gdb can (`record full`, C, C++), and ruby one step "
                   "at a time")
    """Why going back is NOT_SUPPORTED here, and which adapter can."""
    cannot_continue: str = "it cannot continue backwards; adapter gdb can"
    """Why `continue {reverse: true}` and `step {mode: "backOut"}` are NOT_SUPPORTED where stepping back is."""


@dataclass(frozen=True)
class AdapterProfile:
    name: str
    adapter_id: str
    language: str
    extensions: tuple[str, ...]
    tools: tuple[Tool, ...] = ()
    """What must be installed to debug with this adapter (checked before anything starts)."""
    library_files: re.Pattern[str] | None = None
    """Paths of the libraries a program uses (`node_modules`), for what differs in library code (`library_scopes`)
    whatever `justMyCode` makes the program's own."""
    values: ValueShapes = ValueShapes()
    """How this adapter writes values that hide their contents (see `ValueShapes`)."""
    launch: LaunchRules = field(default_factory=LaunchRules)
    program: ProgramRules = field(default_factory=ProgramRules)
    output: OutputRules = field(default_factory=OutputRules)
    stops: StopRules = field(default_factory=StopRules)
    evaluation: EvaluationRules = field(default_factory=EvaluationRules)
    breakpoints: BreakpointRules = field(default_factory=BreakpointRules)
    watches: WatchRules = field(default_factory=WatchRules)
    console: ConsoleRules = field(default_factory=ConsoleRules)
    reverse: ReverseRules = field(default_factory=ReverseRules)

    @property
    def every_tool(self) -> list[Tool]:
        """Every program the profile may need, as `doctor` checks and `dap2mcp install` provides them: its adapter
        and runtime, then its compilers and build tools."""
        compilers = (c.tool for c in self.launch.compilers.values())
        return list(dict.fromkeys([*self.tools, *compilers, *self.launch.project_tools]))

    def path_map_arguments(self, target: Target) -> dict[str, Any]:
        """The launch or attach arguments that carry the target's path mappings (none without mappings). The
        adapter translates both ways: breakpoints go out by the remote path, frames and sources come back local,
        so the session, its allow-list of sources and its results see local paths only."""
        if not target.path_mappings:
            return {}
        if self.launch.path_map is None:
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"pathMappings: {self.launch.no_path_map}")
        if self.launch.path_map.key is None:
            if len(target.path_mappings) > 1:
                raise DebugError(ErrorCode.NOT_SUPPORTED, f"pathMappings: the {self.name} adapter takes one "
                                 f"mapping (a local and a remote root), {len(target.path_mappings)} were given: "
                                 "map the directory that holds the program's files")
            spelled = self.launch.path_map.spell(*target.path_mappings[0])
            assert isinstance(spelled, dict), "a mapping among the arguments has named fields"
            return spelled
        return {self.launch.path_map.key: [self.launch.path_map.spell(local, remote) for local, remote in target.path_mappings]}

    def before_child(self, started: list[int]) -> None:
        """Blocking work when the adapter announces a child process, before its session connects; `started`:
        the processes dap2mcp started for the program's first session (the adapter, the program)."""

    def settled(self, target: Target) -> Target:
        """`target` with what the profile chooses for it once, before `plan` and `ready` (which may run at the same
        time) both read it: Python's interpreter. Cheap, since it runs before anything starts."""
        return target

    def test_runner(self, target: Target) -> TestRunner | None:
        """How `target`'s tests run (mode `test`): the profile's one runner, unless it chooses among several."""
        return self.launch.tests

    def function_filters(self, target: Target) -> tuple[FunctionFilter, ...]:
        """The exception filters dap2mcp makes for `target` out of function breakpoints (see `FunctionFilter`)."""
        return ()

    def output_held(self, target: Target) -> str | None:
        """Why what the program prints may not reach its output, and what to do about it (a test runner
        capturing it); None where nothing is known to hold it."""
        return None

    def names_read(self, expression: str) -> tuple[str, ...] | None:
        """The plain names an expression of the program's language reads, where dap2mcp can tell (None:
        it cannot); a SyntaxError for one that is no expression."""
        return None

    def assignment_again(self, target: str, value: str) -> str | None:
        """An expression that makes the refused assignment `target = value` once more, so that the adapter's
        answer names what it raised; None where running it again could do anything but fail the same way."""
        return None


    def own_code_request(self, files: list[str]) -> tuple[str, dict[str, Any]] | None:
        """The request that makes `files` count as the program's own code, where the adapter keeps library
        code apart and would neither stop nor step there (debugpy's justMyCode); None where it does not."""
        return None

    def running_files(self, pid: int) -> list[str]:
        """The source files a running process's threads are in, where the adapter cannot say (blocking)."""
        return []

    def running_threads(self, pid: int, max_frames: int) -> list[ThreadReport] | None:
        """Every thread of the process with its innermost frames, read from outside the adapter (blocking):
        where the adapter can neither stop a thread blocked inside a call into native code nor say where it
        is. None where this adapter has no such way, or the process could not be made to say."""
        return None

    def reloader(self, target: Target, exit_code: int | None) -> str | None:
        """Who restarts a child process that ended with `exit_code` (a development server's reloader, whose
        server exits with a code of its own after a file change), or None where the end is just an end."""
        return None

    def file_refusal(self, path: str, target: Target) -> str | None:
        """Why a line breakpoint in `path` could never stop in this program, where the adapter would take it
        and stay silent; None where it can."""
        return None

    def function_place(self, name: str, target: Target) -> FunctionPlace:
        """How a function breakpoint on `name` is sent (blocking: it may ask the program's runtime)."""
        return FunctionPlace(name)

    def helper_source(self) -> str | None:
        return (Path(__file__).parent / self.evaluation.capture_helper).read_text() if self.evaluation.capture_helper else None

    def plan(self, target: Target) -> AdapterStart:  # pragma: no cover - each profile overrides
        raise NotImplementedError

    def prepare(self, target: Target) -> tuple[Target, str | None]:
        """Blocking work before anything is spawned: find the tools, build the program. Returns the target
        to run and what runs it (e.g. "Python 3.11.7", "cc 12.2.0") where it can tell."""
        for tool in self.tools:
            tool.require(self.name)
        if target.core is not None:
            target = replace(target, core=target.absolute(target.core))
        if target.mode in ("attach", "connect") or not target.path:
            return target, None
        program = target.absolute(target.path)
        compiler = self.launch.compilers.get(os.path.splitext(program)[1].lower()) if target.mode == "source" else None
        if compiler is None:
            return replace(target, program=program), None
        built = build(compiler.tool.require(self.name), compiler.argv, program)
        return replace(target, program=built), compiler.tool.commands[0]

    def ready(self, target: Target) -> tuple[Target, str | None]:
        """`prepare`, and the program's own entry function found (for an executable, among its symbols):
        the blocking work before a start, done in a thread."""
        target, runtime = self.prepare(target)
        return replace(target, main=self.entry(target), entry_line=self.entry_place(target),
                       library=self.library_dirs()), runtime

    def library_dirs(self) -> tuple[str, ...]:
        """Where the language's own library lives, where its source is on this machine (blocking)."""
        return ()

    def entry(self, target: Target) -> str | None:
        """The function `stopOnEntry` stops in, where the adapter's own entry stop is the loader's."""
        return self.launch.entry_function

    def entry_place(self, target: Target) -> tuple[str, int] | None:
        """The file and line `stopOnEntry` stops at, where the adapter's own entry stop comes after the top level
        has begun to run (see `Target.entry_line`); None: the adapter's own, or `entry`'s function (blocking)."""
        return None

    def readable_symbol(self, name: str) -> str:
        """A stack frame's function name without hash suffixes or leftover escapes."""
        if self.stops.symbol_suffix is not None:
            name = self.stops.symbol_suffix.sub("", name)
        if "$" in name and self.stops.symbol_escapes:
            name = re.sub(r"(^|::)_(?=\$)", r"\1", name)  # `_$LT$`: a component may not begin with `$`
            for escaped, plain in self.stops.symbol_escapes:
                name = name.replace(escaped, plain)
        return name

    def readable_text(self, text: str) -> str:
        """An adapter's words (an error) with each symbol in them made readable as `readable_symbol` does: lldb's
        `clos::main::_$u7b$$u7b$closure$u7d$$u7d$::h25a5…` reads `clos::main::{{closure}}`."""
        if not self.stops.symbol_escapes or "$" not in text:
            return text
        return _ESCAPED_SYMBOL.sub(lambda found: self.readable_symbol(found.group(0)), text)

    def shown_output(self, category: str, text: str, starting: bool, connected: bool = False) -> str:
        """The part of an output event worth showing the agent. Over `connect` the program's output comes
        with the adapter's, whatever its own categories are elsewhere."""
        if self.launch.quiet_start and starting:
            return ""
        if self.launch.terminal_output and category in ("stdout", "stderr"):
            text = text.replace("\r\n", "\n")
        if self.output.console_noise is not None and category in (("console",) if connected else self.output.own_categories):
            text = self.output.console_noise.sub("", text)
        return text

    def programs(self, category: str, connected: bool = False) -> bool:
        """Whether an output event of `category` carries the program's output rather than the adapter's own
        words. Over `connect` the program's output comes in whatever the adapter calls its own but `console`."""
        if self.output.program_categories is None:
            return True
        return category != "console" if connected else category in self.output.program_categories

    def own_lines(self, text: str) -> tuple[str, str]:
        """`text` from the stream the program writes to, split into the program's and the adapter's own lines;
        what dap2mcp's own commands printed (`OWN_PRINT`) is in neither: their answers were read already."""
        if self.output.own_log_lines is None or not self.output.own_log_lines.search(text):
            return text, ""
        own = "".join(match.group(0) for match in self.output.own_log_lines.finditer(text))
        return self.output.own_log_lines.sub("", text), _OWN_PRINTS.sub("", own)

    def exit_code(self, text: str) -> int | None:
        """The exit code in the last end-of-program text in `text`: the adapter's, where the program
        printed one of its own before."""
        matches = list(self.program.exit_pattern.finditer(text)) if self.program.exit_pattern else []
        if not matches:
            return None
        match = matches[-1]
        groups = match.groupdict()
        if groups.get("signal"):
            with contextlib.suppress(KeyError):
                return killed_by(signal.Signals[groups["signal"]].value)
            return killed_by(0)
        code = groups.get("code")
        return int(code, self.program.exit_code_base) if code else 0
