"""C, C++ and Rust: lldb-dap (the default) and cdt-gdb-adapter on gdb (adapter 'gdb').

Both take an executable; mode `source` compiles one source file first (see `build`). What differs
between the two is only how they spell the launch and attach arguments, and their quirks, as data.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field, replace
from typing import Any

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from ..errors import DebugError, ErrorCode
from ..program_pipe import make_fifo
from . import cargo
from .base import (
    OWN_PRINT,
    AdapterProfile,
    AdapterStart,
    BreakpointRules,
    Compiler,
    ConsoleRules,
    EvaluationRules,
    FunctionFilter,
    LaunchRules,
    OutputRules,
    PathMapSpelling,
    ProgramRules,
    ReverseRules,
    StopRules,
    Target,
    TestRunner,
    Tool,
    ValueShapes,
    WatchRules,
)
from .generic import fill

C_EXTENSIONS = (".c", ".cc", ".cpp", ".cxx", ".c++")
NATIVE_EXTENSIONS = (*C_EXTENSIONS, ".rs")

C_FLAGS = ("-g", "-O0", "-o", "{output}", "{source}")
C = Compiler(Tool("compiler", ("cc", "gcc", "clang"), package="gcc"), C_FLAGS)
CXX = Compiler(Tool("compiler", ("c++", "g++", "clang++"), package="g++"), C_FLAGS)
RUST = Compiler(Tool("compiler", ("rustc",), package="rustc", note="or rustup"),
                ("-g", "-C", "opt-level=0", "--edition", "2021", "-o", "{output}", "{source}"))
RUST_MENDS = os.path.join(os.path.dirname(__file__), "_lldb_rust.py")
"""Mends the toolchain's formatters under lldb 19: enum variants, a time budget per value, and the values they show
wrongly or not at all (`_lldb_rust_views.py`, which it loads)."""
STDIN_FROM_NULL = "settings set target.input-path /dev/null"
LLDB_MEMORY = ("`script error = lldb.SBError(); data = lldb.process.ReadMemory({address}, {count}, error); "
               f"print('{OWN_PRINT}{{address}}', data.hex() if error.Success() else 'error ' + str(error.GetCString()))")
"""lldb-dap 19 has no `readMemory`: lldb's own Python reads the bytes (see `AdapterProfile.console.memory_command`)."""
STEP_AVOID = "settings set target.process.thread.step-avoid-regexp ^(std|__gnu_cxx)::"
"""A `step in` passes over the C++ library's functions (lldb's default, `^std::`, let a range-for's step in enter
libstdc++'s `__gnu_cxx::operator!=` in stl_iterator.h) and goes on to the program's own call."""
FORMATTERS = f"command script import {os.path.join(os.path.dirname(__file__), '_lldb_formatters.py')}"
"""dap2mcp's fixes to lldb's C++ formatters (see `_lldb_formatters`)."""
COMPILERS = {".c": C, ".cc": CXX, ".cpp": CXX, ".cxx": CXX, ".c++": CXX, ".rs": RUST}


SYSTEM_CODE = ("/usr/include/", "/usr/local/include/", "/usr/lib/")


@dataclass(frozen=True)
class NativeProfile(AdapterProfile):
    launch_keys: dict[str, str] = field(default_factory=dict)
    """How this adapter spells program, args, cwd, env and the attach pid (DAP leaves them to adapters)."""
    fixed: dict[str, Any] = field(default_factory=dict)
    """Arguments this adapter always needs (cdt-gdb-adapter: which gdb; lldb-dap: stdin from /dev/null)."""
    stdin_redirect: str = ""
    """Appended to a shell-run command line so that the program reads end of file, not a terminal."""
    output_to_fifo: bool = False
    """Send the program's output to a FIFO of ours, on its shell-run command line (gdb garbles it)."""
    rust_commands: tuple[str, ...] = ()
    """Init commands for a Rust program, `{etc}` being the toolchain's `lib/rustlib/etc`: its formatters,
    which show a `String`, `Vec` or `HashMap` by its contents rather than as a struct of raw pointers; then
    dap2mcp's mends of them (`_lldb_rust.py`)."""

    rust_filters: tuple[FunctionFilter, ...] = ()
    """Exception filters of a Rust program's own (its panics), which the adapter does not offer."""
    core_attach: dict[str, Any] = field(default_factory=dict)
    """The `attach` arguments that open a core file (mode `core`), `${core}` its path, beside `program`."""
    core_adapter: Tool | None = None
    """The adapter's other command that opens cores, where its usual one cannot (cdt-gdb-adapter's target
    adapter, which has gdb select the core as its target)."""

    def function_filters(self, target: Target) -> tuple[FunctionFilter, ...]:
        return self.rust_filters if self.is_rust(target) else ()

    def prepare(self, target: Target) -> tuple[Target, str | None]:
        """A Cargo project (mode `test`, or `source` with its directory) is built by cargo; a C or C++ project's
        directory is refused, its build being the project's own."""
        if target.mode not in ("source", "test"):
            return super().prepare(target)
        project = target.absolute(target.path or ".")
        if not cargo.is_project(project):
            if target.mode == "test" or os.path.isdir(project):
                raise DebugError(ErrorCode.INVALID_ARGUMENT, directory_refused(target.path or ".", project))
            return super().prepare(target)
        for tool in self.tools:
            tool.require(self.name)
        if target.mode == "source":
            return replace(target, program=cargo.binary(project, target.bin)), "cargo"
        built, others = cargo.test_binary(project, target.test)
        return replace(target, program=built, not_run=others), "cargo"

    def entry(self, target: Target) -> str | None:
        if target.path and target.path.lower().endswith(".rs"):
            return os.path.splitext(os.path.basename(target.path))[0].replace("-", "_") + "::main"
        built_elsewhere = target.mode in ("binary", "test") or cargo.is_project(target.absolute(target.path or "."))
        if target.mode == "test" and target.stop_on_entry and target.program and (
                tests := cargo.listed(target.program, target.test, target.absolute(target.path or "."))):
            return tests[0]  # not the test harness's `main`, where no test has started (lldb finds `tests::x` in any crate)
        if built_elsewhere and target.program and (crate_main := rust_main(target.program)):
            return crate_main  # not the C `main` that Rust's runtime puts before it
        return self.launch.entry_function

    def library_dirs(self) -> tuple[str, ...]:
        """The system's headers and libraries: a C++ container's code is there (`/usr/include/c++/12/bits/
        stl_vector.h`), and a crash inside it (an out-of-range `.at()`) is shown at the program's call."""
        return SYSTEM_CODE

    def is_rust(self, target: Target) -> bool:
        return target.main not in (None, self.launch.entry_function)

    def ready(self, target: Target) -> tuple[Target, str | None]:
        target, runtime = super().ready(target)
        if self.rust_commands and self.is_rust(target):
            rust_etc()  # asks rustc, once: here in the start's thread, not in `plan` on the event loop
        return target, runtime

    def plan(self, target: Target) -> AdapterStart:
        keys = self.launch_keys
        argv = [self.tools[0].require(self.name)]
        common: dict[str, Any] = {"name": "dap2mcp", "type": self.adapter_id, **self.fixed,
                                  **self.path_map_arguments(target)}
        if self.rust_commands and self.is_rust(target) and (etc := rust_etc()):
            common["initCommands"] = [*common.get("initCommands", ()), *(c.format(etc=etc) for c in self.rust_commands)]
        if target.mode == "core":
            adapter = self.core_adapter.require(self.name) if self.core_adapter else argv[0]
            return AdapterStart([adapter], "attach", {**common, "request": "attach", "program": target.program,
                                                      **fill(self.core_attach, target)})
        if target.mode == "attach":
            pid: Any = str(target.process_id) if keys.get("pid_as_text") else target.process_id
            return AdapterStart(argv, "attach", {**common, "request": "attach", keys["pid"]: pid})
        # a test binary runs in its project's directory, as under `cargo test` (a test's files are read from there)
        home = target.absolute(target.path or ".") if target.mode == "test" else os.getcwd()
        arguments = {**common, "request": "launch", "program": target.program or target.path,
                     "cwd": target.cwd or home}
        fifo = make_fifo() if self.output_to_fifo and target.mode != "connect" else None
        if keys["args"] == "arguments":  # one command line, which gdb runs through the shell
            redirects = (self.stdin_redirect, f"> {shlex.quote(fifo)} 2>&1" if fifo else "")
            arguments["arguments"] = " ".join(filter(None, (shlex.join(target.args), *redirects)))
        else:
            arguments["args"] = cargo.test_arguments(target.test, target.args) if target.mode == "test" else list(target.args)
        if target.env:
            arguments[keys["env"]] = ([f"{k}={v}" for k, v in target.env.items()] if keys.get("env_as_list")
                                      else dict(target.env))
        if target.mode == "connect":
            return AdapterStart([], "launch", arguments, address=target.address)
        return AdapterStart(argv, "launch", arguments, output_fifo=fifo)


def directory_refused(given: str, directory: str) -> str:
    """Why a directory that is no Cargo project is not debugged as one: what to give instead."""
    if any(os.path.isfile(os.path.join(directory, name)) for name in ("Makefile", "makefile", "GNUmakefile",
                                                                        "CMakeLists.txt")):
        return (f"'{given}' is a C/C++ project built by make or CMake, which dap2mcp does not run: build it with "
                "debug info (-g, CMAKE_BUILD_TYPE=Debug) and debug the executable with mode 'binary'")
    return (f"'{given}' is a directory without Cargo.toml: give a source file (mode 'source'), a Cargo project's "
            "directory, or an executable (mode 'binary')")


RUST_MAINS = (re.compile(r"_ZN(\d+)(\w+?)4main17h[0-9a-f]{16}E"), re.compile(r"_RNvC(?:s[0-9A-Za-z]*_)?(\d+)_?(\w+?)4main"))
"""A crate's own `main` under Rust's two symbol manglings, legacy (`_ZN7edition4main17h<hash>E`, the
default) and v0 (`_RNvCs<disambiguator>_7edition4main`, `-C symbol-mangling-version=v0`; a name that
begins with `_` gets one more `_` before it)."""


@functools.cache
def rust_etc() -> str | None:
    """Where the Rust toolchain keeps its debugger formatters (rustup's or the distribution's), if anywhere."""
    rustc = shutil.which("rustc")
    if rustc is None:
        return None
    try:
        sysroot = subprocess.run([rustc, "--print", "sysroot"], capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    etc = os.path.join(sysroot, "lib", "rustlib", "etc")
    return etc if os.path.isfile(os.path.join(etc, "lldb_lookup.py")) else None


RUST_LEGACY_ESCAPES = (("$LT$", "<"), ("$GT$", ">"), ("$RF$", "&"), ("$BP$", "*"), ("$SP$", "@"), ("$LP$", "("),
                       ("$RP$", ")"), ("$C$", ","), ("$u20$", " "), ("$u22$", '"'), ("$u27$", "'"), ("$u2b$", "+"),
                       ("$u3b$", ";"), ("$u5b$", "["), ("$u5d$", "]"), ("$u7b$", "{"), ("$u7d$", "}"), ("$u7e$", "~"),
                       ("..", "::"))
"""Rust's legacy mangling escapes, which lldb 19 leaves in some names (`_$LT$alloc..vec..Vec$LT$T$GT$...`)."""


def rust_main(executable: str) -> str | None:
    """`<crate>::main` if `executable` is a Rust program that keeps its symbols, else None."""
    try:
        with open(executable, "rb") as file:
            table = ELFFile(file).get_section_by_name(".symtab")
            for symbol in table.iter_symbols() if table is not None else ():
                for pattern in RUST_MAINS:
                    found = pattern.fullmatch(symbol.name)
                    if found and len(found.group(2)) == int(found.group(1)):
                        return f"{found.group(2)}::main"
    except (OSError, ELFError):
        return None
    return None


GDB_READS = frozenset({"print", "p", "output", "ptype", "whatis", "x", "info", "i", "list", "l", "backtrace", "bt",
                       "where", "show", "help", "disassemble", "echo"})
"""gdb commands that only read the program or the debugger (`>` in `evaluate`)."""
GDB_INSTEAD = (
    (frozenset({"run", "r", "start", "starti"}), "`restart`"),
    (frozenset({"continue", "c", "fg", "next", "n", "step", "s", "finish", "fin", "until", "u", "advance", "jump", "j",
                "stepi", "si", "nexti", "ni", "signal", "return", "call"}), "`continue` or `step`"),
    (frozenset({"kill", "k", "quit", "q", "detach"}), "`stop`"),
    (frozenset({"attach", "file", "exec-file", "symbol-file", "target", "core", "core-file"}), "`debug`"),
    (frozenset({"break", "b", "br", "tbreak", "rbreak", "watch", "rwatch", "awatch", "delete", "d", "clear", "condition",
                "enable", "disable", "ignore", "commands", "dprintf"}), "`breakpoint` or `clear-breakpoints`"),
    (frozenset({"set"}), "`set-variable`, or `evaluate` with an assignment"),
    (frozenset({"frame", "f", "up", "down", "thread", "select-frame"}), "`context` with frameId or threadId"),
)
"""gdb commands refused in `evaluate`, and the tool to use instead (`shell`, `!`, `pipe`, `python`, ... are
refused too, without one)."""

RUST_PANIC = FunctionFilter(
    "panic", "Rust panic", "rust_panic",  # std calls it once the panic hook has printed the message
    re.compile(r"panicked at (?P<place>[^\n]*):\r?\n(?P<message>.*?)\r?(?:\nnote: |\nstack backtrace:|\n?\Z)", re.S))
"""A panic stops the program in the frame that panicked (an index out of bounds, an overflow, `unwrap` on an
`Err`, `panic!`), rather than letting it exit with 101; lldb-dap offers only C++ and Objective-C filters."""

TOOLCHAIN_GLOBALS = re.compile(r"^(?:std|__gnu_cxx|__cxxabiv1|core|alloc)::|^__|\{vtable\}|^<.+ as .+>::")
"""Globals of the C++ and Rust libraries (and their vtables) that lldb-dap lists at every stop of a program
using them: `std::__detail::_Prime_rehash_policy::_S_growth_factor`, `<String as Debug>::{vtable}`."""

LLDB_VALUES = ValueShapes(
    opaque=re.compile(r".* @ 0x[0-9a-fA-F]+"),  # `account @ 0x7ff…`, `int[16] @ 0x…`
    # a container's count, a pointer's address, both (a Rust `&Vec<T>`)
    bare=re.compile(r"(?:0x[0-9a-fA-F]+ )?size=\d+|0x[0-9a-fA-F]+"),
    null_member="<error: parent is NULL>",
    toolchain_globals=TOOLCHAIN_GLOBALS,
)

GDB_VALUES = ValueShapes(
    opaque=re.compile(r"\{\.\.\.\}|\[\d+\]"),  # a struct or a C++ container; an array evaluated
    opaque_types=re.compile(r"\[\d+\]$"),  # a local array, written as its address
    printed_struct=re.compile(r"\{[A-Za-z_]\w* = "),
    bare=re.compile(r"0x[0-9a-fA-F]+"),  # a pointer with children: to a struct, not to text or a function
    # cdt-gdb-adapter's request for one MI command (its own tests use it); gdb prints with its pretty printers
    printer=("cdt-gdb-tests/executeCommand", "-data-evaluate-expression --thread {thread} --frame {frame} {expression}"),
    # libstdc++'s printers give a smart pointer's address alone; not an empty one's (`{get() = 0x0}`)
    owner_print=re.compile(r"std::(unique_ptr|shared_ptr|weak_ptr)<.*= \{get\(\) = 0x(?!0+\})[0-9a-f]+\}"),
)

LLDB = NativeProfile(
    name="lldb",
    adapter_id="lldb-dap",
    language="c/c++/rust",
    extensions=NATIVE_EXTENSIONS,
    tools=(Tool("adapter", ("lldb-dap-19", "lldb-dap", "/usr/lib/llvm-19/bin/lldb-dap"),
                version_command=("lldb-19", "--version"), package="lldb-19"),),
    values=LLDB_VALUES,
    launch_keys={"args": "args", "env": "env", "env_as_list": "yes", "pid": "pid"},
    core_attach={"coreFile": "${core}"},
    # else the program reads a terminal nobody types into, and waits
    fixed={"initCommands": [STDIN_FROM_NULL, STEP_AVOID, FORMATTERS]},
    rust_commands=("command script import {etc}/lldb_lookup.py", "command source -s 1 {etc}/lldb_commands",
                   f"command script import {RUST_MENDS}"),
    rust_filters=(RUST_PANIC,),
    launch=LaunchRules(
        compilers=COMPILERS,
        project_tools=(cargo.CARGO,),
        terminal_output=True,
        entry_function="main",
        reads_cores=True,
        path_map=PathMapSpelling("sourceMap", local=1, remote=0),  # lldb's target.source-map: [as built, as here]
        tests=TestRunner("cargo test", nothing_selected_text=re.compile(r"^running 0 tests$", re.M)),
    ),
    program=ProgramRules(
        answers_in_turn=True,
        lists_all_children=True,
    ),
    output=OutputRules(
        # the program runs on a pseudo-terminal, its stdout and stderr both "stdout"; lldb's own errors and
        # warnings (a missing .dwo, the Rust formatters' Python tracebacks) come as "stderr", its console as "console"
        program_categories=("stdout",),
        console_noise=re.compile(rf"^(Running initCommands:|\(lldb\) ({re.escape(STDIN_FROM_NULL)}|{re.escape(STEP_AVOID)}|command (script import|source -s 1) .*)"
                                 r"|Process \d+ exited with status = .*)\n", re.MULTILINE),
        # lldb-dap sends lldb's own stdout as "stdout" too: what dap2mcp's commands print, and lldb's note at a watch
        own_log_lines=re.compile(rf"^{OWN_PRINT}[^\n]*\n|^\n?Watchpoint \d+ hit:\n(?:old value: [^\n]*\n)?"
                                 r"new value: [^\n]*\n", re.MULTILINE),
    ),
    stops=StopRules(
        stray_step_stops=True,
        symbol_suffix=re.compile(r"::h[0-9a-f]{16}$"),
        symbol_escapes=RUST_LEGACY_ESCAPES,
        own_numbering=re.compile(r"breakpoint \d+\.\d+"),
        disassembly_offset_counted_here=True,
        steady_ids=True,
    ),
    evaluation=EvaluationRules(
        evaluate_context="watch",
        scopes_on_request=frozenset({"globals"}),  # a C file's statics, its tables: the same at every stop, and large
        assignment="{target} = {value}",
    ),
    breakpoints=BreakpointRules(
        places_a_line=True,
        function_answers_unordered=True,
        hit_counts=((">=", "", 0), (">", "", 1)),  # lldb-dap 19 takes a bare N as "pass over N - 1 hits", no other form
        changed_while_running=False,
    ),
    watches=WatchRules(
        watch_name="&({})",
        watch_stop=re.compile(r"^breakpoint watchpoint \d+"),
        watch_stopper_command=f"`script print('{OWN_PRINT}watch', hex(lldb.target.FindWatchpointByID("
                              "lldb.thread.GetStopReasonDataAtIndex(0)).GetWatchAddress()))",
        line_before_command=f"`script print('{OWN_PRINT}line', lldb.target.ResolveLoadAddress(lldb.frame.GetPC() - 1)"
                            ".GetLineEntry().GetLine())",
    ),
    console=ConsoleRules(
        address_of="&({})",
        memory_command=LLDB_MEMORY,
        save_core_instead="lldb on Linux writes minidumps, not ELF cores: debug the program with adapter gdb to "
                          "save one (gcore)",
    ),
)

GDB_ADAPTER_VERSION = ("node", "-p", "const p = require('path'), d = p.dirname(require('fs').realpathSync("
                       "process.argv[1])); 'cdt-gdb-adapter@' + require(p.join(d, '..', 'package.json')).version",
                       "{path}")
"""cdt-gdb-adapter's version, from the package.json beside the script found (in dap2mcp's tool directory, or npm's)."""

GDB = NativeProfile(
    name="gdb",
    adapter_id="cdt-gdb",
    language="c/c++",
    extensions=C_EXTENSIONS,
    tools=(Tool("adapter", ("cdtDebugAdapter",), version_command=GDB_ADAPTER_VERSION, fetch="gdb"),
           Tool("runtime", ("node",), package="nodejs"),
           Tool("debugger", ("gdb",), package="gdb")),
    launch_keys={"args": "arguments", "env": "environment", "pid": "processId", "pid_as_text": "yes"},
    core_attach={"target": {"type": "core", "parameters": ["${core}"]}},  # gdb's `target core FILE`
    core_adapter=Tool("adapter", ("cdtDebugTargetAdapter",), version_command=GDB_ADAPTER_VERSION, fetch="gdb"),
    # the program's stdout is our FIFO, so the C library would hold printf text until exit: line-buffered,
    # as on the terminal lldb gives it, what it printed before a stop is there at the stop; a char[64] reads as
    # its text, not its NULs
    # a step in passes over the C++ library's functions, as lldb's does (STEP_AVOID)
    fixed={"gdb": "gdb", "initCommands": ["set exec-wrapper stdbuf -oL", "set print null-stop on",
                                          "skip -rfunction ^(std|__gnu_cxx)::"]},
    stdin_redirect="< /dev/null",
    output_to_fifo=True,
    values=GDB_VALUES,
    launch=LaunchRules(
        compilers={ext: COMPILERS[ext] for ext in C_EXTENSIONS},
        quiet_start=True,
        entry_function="main",
        reads_cores=True,
        core_stop_told=False,
        core_signal="$_siginfo.si_signo",
        no_path_map=("cdt-gdb-adapter 1.7 takes no path mapping argument (no sourceMap, no substitutePath); "
                     "adapter lldb maps paths for C and C++"),
    ),
    program=ProgramRules(
        # gdb reports the end only as console text, its exit code in octal: "[Inferior 1 (process 9) exited with code 03]"
        exit_pattern=re.compile(r"\[Inferior \d+ \(process \d+\) exited (?:normally|with code (?P<code>[0-7]+))\]"
                                r"|^Program terminated with signal (?P<signal>SIG[A-Z0-9]+)", re.MULTILINE),
        exit_in_output_ends=True,
        inferior_depth=2,
        exit_code_base=8,
        # gdb runs one command at a time: while a function an evaluation called runs (`sleep(25)`), nothing else is
        # answered, so each request behind it would wait out a timeout of its own
        answers_in_turn=True,
    ),
    output=OutputRules(
        # the program writes to a FIFO of ours: what the adapter sends as "stdout" is gdb's own console
        own_categories=("console", "stdout"),
        program_categories=(),  # its lines at each stop, its warnings, cdt-gdb-adapter's "GDB unhandled notify"
        console_noise=re.compile(r"^(\[Thread debugging using libthread_db enabled\]|Using host libthread_db library .*"
                                 r"|\[Inferior \d+ \(process \d+\) exited (?:normally|with code [0-7]+)\]"
                                 r"|\[New Thread .*\]|\[Thread .* exited\]|\[Detaching after v?fork from child process \d+\])\n",
                                 re.MULTILINE),
    ),
    stops=StopRules(
        stack_page=100,
        step_in_leaves_sourceless=True,
        disassembly_offset_counted_here=True,
    ),
    evaluation=EvaluationRules(
        assignment="{target} = {value}",
        failed_evaluations=("Error: could not evaluate expression",),  # gdb's own reason is not passed on
        explain_failure=">print {expression}",
        # cdt-gdb-adapter reads an array's address in gdb's selected frame, the top one: a frame below it that holds
        # an array (a C `char buf[64]`, the `__PRETTY_FUNCTION__` of an `assert`) fails to list at all
        unlisted_scope=re.compile(r'^No symbol ".+" in current context\.'),
    ),
    breakpoints=BreakpointRules(
        # cdt-gdb-adapter 1.7: a bare N stops once, at the Nth hit; "> N" at every hit after the Nth
        hit_counts=(("", "", 0), ("==", "", 0), (">", "> ", 0), (">=", "> ", -1)),
        function_conditions=False,
        refused_condition_kept=True,
        log_as_written=True,
        changed_while_running=False,
    ),
    watches=WatchRules(
        watch_conditions=False,
        watch_stop=re.compile(r"^generic"),  # a watch's stop, and gdb's own leaving the watched local's scope
        # a software watchpoint (set while recording, see `reverse`) says `Watchpoint 3: total`
        watch_stopper_output=re.compile(r"^(?:Hardware (?:read |access \(read/write\) )?w|W)atchpoint (\d+):",
                                        re.MULTILINE),
    ),
    console=ConsoleRules(
        address_of="&({})",
        console_prefix=">",
        console_prints=True,
        console_reads=GDB_READS,
        console_writes=re.compile(r"<<=|>>=|(?<![=!<>])=(?!=)|\+\+|--"),  # C's assignments, increments, decrements
        console_instead=GDB_INSTEAD,
        list_commands=(">info args", ">info locals"),
        save_core=">gcore {path}",
    ),
    reverse=ReverseRules(
        record_on=">record full",
        record_off=">record stop",
        record_limit=">set record full insn-number-max {limit}",
        default_limit=200_000,
        # gdb 13 checks only software watchpoints while it replays backwards (a hardware one never fired), and
        # records no AVX2 or AVX-512 instruction (glibc's string routines: `Process record does not support
        # instruction 0x62`), so a program started to be recorded is given glibc's plain ones
        record_setup=(">set can-use-hw-watchpoints 0",),
        record_teardown=(">set can-use-hw-watchpoints 1",),
        record_env=(("GLIBC_TUNABLES", "glibc.cpu.hwcaps=-AVX512F,-AVX2"),),
        replaying=">info record",
        replay_said=re.compile(r"^Replay mode:", re.MULTILINE),
        step_back=">reverse-next",
        back_out=">reverse-finish",
        reverse_continue=">reverse-continue",
        history_end=re.compile(r"^No more reverse-execution history\.", re.MULTILINE),
        limit_passed=re.compile(r"record full stop-at-limit"),
        record_failed=re.compile(r"Process record does not support instruction 0x[^\n]*|Process record: failed[^\n]*"
                                 r"|Process record and replay target doesn't support syscall number \d+"),
        watch_by_address="*({type}*){address}",  # no spaces: cdt-gdb-adapter passes it to `-break-watch` unquoted
        sized_types=((1, "char"), (2, "short"), (4, "int"), (8, "long")),
    ),
)
