"""debugpy: Python programs, scripts or `-m module` targets, launched, attached by pid, or reached where
`debugpy --listen` runs."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, Literal

import debugpy

from .. import processes
from ..errors import DebugError, ErrorCode
from . import inject, python_interpreters, python_lines, python_names, python_threads
from .base import (
    AdapterProfile,
    AdapterStart,
    BreakpointRules,
    ConsoleRules,
    EvaluationRules,
    FunctionPlace,
    LaunchRules,
    OutputRules,
    OwnFrame,
    PathMapSpelling,
    ProgramRules,
    StopRules,
    Summon,
    Target,
    TestRunner,
    Tool,
    ValueShapes,
    WatchRules,
)
from .thread_states import ThreadReport

SITE_DIR = str(Path(__file__).parent / "_site")
DEBUGPY_DIR = Path(debugpy.__file__).parent
REPR_LIMIT = 1.0
"""Seconds one value's repr may take while a stop is read before it is interrupted and shown as too slow
(`_site/sitecustomize.py`): the stop is then read in a bounded time however slow a `__repr__` is."""
PYDEVD_SETTINGS = {
    # pydevd resumes the other threads when reading a value takes over 3 s, then stops them again: the
    # program runs while it is shown as stopped, and the adapter reports the stop twice
    "PYDEVD_UNBLOCK_THREADS_ON_VARIABLES_TIMEOUT": "-1",
    # its warnings about slow values and evaluations would land in the program's output, with the
    # expression (dap2mcp's capture helper is 5 KB); dap2mcp bounds both and says so in its answers
    "PYDEVD_WARN_SLOW_RESOLVE_TIMEOUT": "86400",
    "PYDEVD_WARN_EVALUATION_TIMEOUT": "86400",
    "DAP2MCP_REPR_TIMEOUT": f"{REPR_LIMIT:g}",
}
"""Set in a launched program's environment unless the user's own `env` sets them."""
OWN_CODE_SOURCE = "<dap2mcp: files the agent debugs as the program's own>"
"""The source a mapping of debugpy's is given for, that makes library files the program's own (`own_code_request`)."""
NO_SUCH_LINE = 1 << 30
"""A line no file has: the mapping it starts makes no line of a file stand for another."""
STACK_FILES_WAIT = 3.0
"""How long a running process may take to say which files its threads are in (`stack_files`)."""
INJECTED_CODE_WAIT = 20.0
"""How long a process may take to run the code queued in it: below the handshake's 30 s, so the
error says why."""


def target_python(target: Target) -> str:
    """The interpreter that runs `target`: the one `settled` chose, else (a target that never went through it, as
    the benchmarks' plans) chosen now, the same way."""
    return (target.interpreter or python_interpreters.choose(target)).path


PYTEST = ("pytest", "py.test")
COLLECT_TIMEOUT = 120.0
PYTEST_SHOWS_OUTPUT = re.compile(r"-[xvql]*s[xvql]*|--capture=(?:no|tee-sys)")
"""Arguments after which pytest lets what the tests print through: `-s` (alone or among other flags)."""


_VERSIONS: dict[tuple[object, ...], str] = {}
"""What each interpreter answered, by the identity of its file (see `_identity`)."""


def python_version(python: str) -> str:
    """What `python` is ("Python 3.11.7"), or INVALID_ARGUMENT where it does not run or is not Python 3.

    Running it costs a start of the interpreter (0.1 s through a pyenv shim), so an interpreter file is
    asked once and its answer kept until the file changes. A script (a pyenv shim, a wrapper) is asked
    every time: the Python it runs can change while the script stays the same (pyenv's version files,
    PYENV_VERSION); its check overlaps the adapter's start instead (`plans_before_ready`)."""
    identity = _identity(python)
    known = _VERSIONS.get(identity) if identity is not None else None
    if known is None:
        known = _ask(python)
        if identity is not None:
            _VERSIONS[identity] = known
    return known


def _identity(python: str) -> tuple[object, ...] | None:
    """The file that runs, as it is now (a venv's `python` is a link to it): a new file, or the same one
    rewritten, is another identity. None for a script, or a file that cannot be read."""
    real = os.path.realpath(python)
    try:
        with open(real, "rb") as handle:
            if handle.read(2) == b"#!":
                return None
            found = os.fstat(handle.fileno())
    except OSError:
        return None
    return python, real, found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns


def _ask(python: str) -> str:
    try:
        probe = subprocess.run([python, "-c", "import platform; print(platform.python_version())"],
                               capture_output=True, text=True, timeout=15, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot run Python interpreter {python}: {exc}") from exc
    if probe.returncode != 0 or not probe.stdout.startswith("3."):
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{python} is not a working Python 3 interpreter")
    return f"Python {probe.stdout.strip()}"


@dataclass(frozen=True)
class DebugpyProfile(AdapterProfile):
    def output_held(self, target: Target) -> str | None:
        if target.mode != "test" and target.module not in PYTEST and os.path.basename(target.path or "") not in PYTEST:
            return None
        words = [*target.args, *target.env.get("PYTEST_ADDOPTS", "").split()]
        if any(PYTEST_SHOWS_OUTPUT.fullmatch(w) for w in words) or any(
                a == "--capture" and b in ("no", "tee-sys") for a, b in zip(words, words[1:], strict=False)):
            return None
        return ("pytest captures what the tests print, and what an evaluation prints too: `restart` with '-s' "
                "added to args to see it, or evaluate the value itself rather than printing it")

    def names_read(self, expression: str) -> tuple[str, ...] | None:
        tree = ast.parse(expression.strip(), mode="eval")
        return tuple(dict.fromkeys(node.id for node in ast.walk(tree)
                                   if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)))

    def assignment_again(self, target: str, value: str) -> str | None:
        """`setattr(obj, 'name', value)` or `operator.setitem(obj, key, value)`, the assignment as an expression (debugpy's
        setExpression says only "Error executing"): for a value that calls nothing, since it is computed again."""
        try:
            statement = ast.parse(f"{target} = ({value})", mode="exec").body[0]
        except SyntaxError:
            return None
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1 or any(
                isinstance(node, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Lambda))
                for node in ast.walk(statement)):
            return None
        place = statement.targets[0]
        if isinstance(place, ast.Attribute):
            return f"__import__('builtins').setattr({ast.unparse(place.value)}, {place.attr!r}, ({value}))"
        if isinstance(place, ast.Subscript):
            return f"__import__('operator').setitem({ast.unparse(place.value)}, {ast.unparse(place.slice)}, ({value}))"
        return None

    def settled(self, target: Target) -> Target:
        """The interpreter chosen afresh at each `debug` and `restart` (a virtualenv made since counts), from the
        agent's `python` alone, never from the choice a restarted session carries."""
        if not target.launched:
            return target
        return replace(target, interpreter=python_interpreters.choose(target), templates=_template_engine(target))

    def prepare(self, target: Target) -> tuple[Target, str | None]:
        if target.mode in ("attach", "connect"):
            return target, None
        python = target_python(target)
        version = python_version(python)
        if target.mode == "test":
            _require_pytest(python)
        return target, version

    def reloader(self, target: Target, exit_code: int | None) -> str | None:
        """Django's autoreloader runs the server in a child process, which exits with 3 when a file it watches
        changes; the reloader then starts a new one."""
        return "Django's autoreloader" if target.templates == "django" and exit_code == 3 else None

    def file_refusal(self, path: str, target: Target) -> str | None:
        """pydevd takes a breakpoint in any file and verifies it; in a file that is not Python it stops only
        where a template engine armed at launch renders that file."""
        if path.endswith((".py", ".pyw")) or target.templates or not target.launched or _python_script(path) \
                or (target.file is not None and os.path.realpath(target.absolute(target.file)) == path):
            return None
        return (f"{os.path.basename(path)} is not Python: debugpy stops in a template file only for a Django or "
                "Jinja2 program, and this program is neither (no DJANGO_SETTINGS_MODULE or manage.py; no file beside "
                "it or in cwd imports jinja2 or flask); put the breakpoint in the Python code that renders it")

    def entry(self, target: Target) -> str | None:
        """Where `stopOnEntry` stops in a test run: the first selected test's first line, a function breakpoint
        on the test pytest's own `--collect-only` lists first. debugpy's entry would be the first line of the
        project's code pytest imports (a conftest.py, or the first test module while collecting), where no test
        has started. Where pytest lists no test the run has none to stop in. A program's entry is debugpy's own
        (its first line), which `plan`, made before this runs, asks debugpy for."""
        if target.mode != "test" or not target.stop_on_entry:
            return None
        return _first_test(target)

    def own_code_request(self, files: list[str]) -> tuple[str, dict[str, Any]] | None:
        """debugpy takes its `rules` (which files are the program's own) only at launch. pydevd also counts a
        file as the program's own when a source mapping names it (`PyDB.in_project_scope`, debugpy 1.8.22), and
        `setPydevdSourceMap` may come at any time: the whole list, in one request, each file mapped from no
        line of its own, so that no line anywhere is translated."""
        maps = [{"line": 1, "endLine": 1, "runtimeLine": NO_SUCH_LINE, "runtimeSource": {"path": path}} for path in files]
        return "setPydevdSourceMap", {"source": {"path": OWN_CODE_SOURCE}, "pydevdSourceMaps": maps}

    def function_place(self, name: str, target: Target) -> FunctionPlace:
        """pydevd matches a function breakpoint against the bare name of the function called (a dotted name
        never matched), so `json.loads` is sent as `loads`, and json/__init__.py becomes the program's own so
        that it stops there. Only a launched program's interpreter is known to look the module up with. It
        never takes a generator's or a coroutine's frame for a call: those go as a line breakpoint on the
        function's first line, which runs once each time one of its generators or coroutines starts."""
        parts = name.split(".")
        if not all(part.isidentifier() for part in parts):
            return FunctionPlace(name)
        found = None
        if len(parts) == 1 and target.mode in ("source", "test") and target.path:
            program = target.absolute(target.path.split("::")[0])
            if program.endswith(".py") and (node := python_names.only_definition(program, name)):
                found = program, node
        elif len(parts) > 1 and target.mode in ("source", "binary"):
            first = os.path.dirname(target.absolute(target.path)) if target.path else target.files_from
            pythonpath = target.env.get("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
            path = python_names.search_path(target_python(target), target.files_from, pythonpath, first)
            found = python_names.definition(name, path)
        if found is None:
            return FunctionPlace(parts[-1])
        file, node = found
        line, first_pass = python_names.resumed_first_line(node) or (None, None)
        return FunctionPlace(parts[-1], file if len(parts) > 1 or line else None, line, first_pass)

    def running_files(self, pid: int) -> list[str]:
        return stack_files(pid, STACK_FILES_WAIT)

    def running_threads(self, pid: int, max_frames: int) -> list[ThreadReport] | None:
        return python_threads.read(pid, max_frames, STACK_FILES_WAIT)

    def plan(self, target: Target) -> AdapterStart:
        argv = [sys.executable, "-m", "debugpy.adapter"]
        common = {"name": "dap2mcp", "type": "python", "justMyCode": target.just_my_code, "showReturnValue": True,
                  **self.path_map_arguments(target)}
        # a program attached to writes to its own stdout and stderr: pydevd copies what it writes there to the
        # adapter as output events only when told to (a launch's output comes through debugpy's launcher instead)
        attach = {**common, "request": "attach", "redirectOutput": True}
        if target.mode == "attach" and inject.supported():  # the adapter listens; the process is made to call
            listen = {"host": "127.0.0.1", "port": 0}
            return AdapterStart(argv, "attach", {**attach, "listen": listen},
                                summon=Summon("debugpyWaitingForServer", partial(_connect_back, target.process_id),
                                              target.process_id))
        if target.mode == "attach":  # debugpy injects with gdb
            return AdapterStart(argv, "attach", {**attach, "processId": target.process_id})
        if target.mode == "connect":  # `python -m debugpy --listen host:port prog.py` runs an adapter there
            return AdapterStart([], "attach", attach, address=target.address)

        env = dict(target.env)
        inherited = env.get("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (SITE_DIR, inherited) if p)
        env["DAP2MCP_MERGE_STDERR"] = "1"
        for name, value in PYDEVD_SETTINGS.items():
            env.setdefault(name, value)
        env["DAP2MCP_STOP_ON_OVERFLOW"] = "1"
        env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # pydevd's "frozen modules" warning in each child's output
        if target.tcp_nodelay:
            env["DAP2MCP_TCP_NODELAY"] = "1"
        arguments = {
            **common,
            "request": "launch",
            "python": [target_python(target)],
            "args": list(target.args),
            "cwd": target.cwd or os.getcwd(),
            "env": env,
            "console": "internalConsole",
            "stopOnEntry": target.stop_on_entry and target.mode != "test",  # a test run's is a breakpoint (`entry`)
            # always: each child waits for a connection (a session, or one that lets it go, see children.py);
            # without it a forked child that reaches a breakpoint is suspended for ever, and no stop is reported
            "subProcess": True,
        }
        if target.templates:  # pydevd's template breakpoints, and a Django reloader's exit 3 taken for a restart
            arguments[target.templates] = True
        if target.mode == "test":  # `python -m pytest PATH [-k TEST] ARGS`, as the project runs its tests
            arguments |= {"module": "pytest", "args": _pytest_arguments(target)}
        elif target.module:
            arguments["module"] = target.module
        else:
            arguments["program"] = target.path
        return AdapterStart(argv, "launch", arguments)


def _python_script(path: str) -> bool:
    """A script without a `.py` name (a tool in bin/): its first line names Python as its interpreter."""
    try:
        with open(path, "rb") as script:
            first = script.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def _template_engine(target: Target) -> Literal["django", "jinja"] | None:
    """The template engine debugpy is to follow (it follows one, armed at launch): Django for a Django project
    (its settings named in the environment, or a manage.py beside the program or in `cwd`), else Jinja2 where
    the program's own files import it or Flask (which renders with it). Read from the files, without running
    the interpreter: it is decided before the adapter starts."""
    places = list(dict.fromkeys([target.files_from, *([os.path.dirname(target.absolute(target.file))]
                                                       if target.file else [])]))
    if "DJANGO_SETTINGS_MODULE" in {**os.environ, **target.env} or target.module == "django" or any(
            os.path.isfile(os.path.join(place, "manage.py")) for place in places):
        return "django"
    return "jinja" if any(_imports_jinja(place) for place in places) else None


_JINJA_IMPORT = re.compile(rb"^\s*(?:from|import)\s+(?:jinja2|flask)\b", re.MULTILINE)


def _imports_jinja(folder: str, most: int = 200) -> bool:
    """Whether a .py file of `folder` (not its subfolders; the first `most`) imports jinja2 or flask."""
    try:
        names = sorted(name for name in os.listdir(folder) if name.endswith(".py"))[:most]
    except OSError:
        return False
    for name in names:
        try:
            with open(os.path.join(folder, name), "rb") as source:
                if _JINJA_IMPORT.search(source.read(65536)):
                    return True
        except OSError:
            continue
    return False


def _pytest_arguments(target: Target) -> list[str]:
    return [target.path or ".", *(["-k", target.test] if target.test else []), *target.args]


def _first_test(target: Target) -> str | None:
    """The function of the first test the run selects (`test_x` of `tests/test_a.py::TestA::test_x[1-2]`), as
    pytest collects it with the run's arguments; None where it lists none or cannot collect."""
    # the verbosity last, over the project's `-q` or `-v` (addopts, PYTEST_ADDOPTS, args): one node id a line
    command = [target_python(target), "-m", "pytest", *_pytest_arguments(target), "--collect-only", "--verbosity=-1"]
    try:
        listed = subprocess.run(command, cwd=target.cwd or None, env={**os.environ, **target.env}, capture_output=True,
                                text=True, errors="replace", timeout=COLLECT_TIMEOUT, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    node = next((line for line in listed.stdout.splitlines() if "::" in line and not line[:1].isspace()), None)
    return node.rsplit("::", 1)[1].split("[", 1)[0] if node else None


def _require_pytest(python: str) -> None:
    """Mode `test` runs `python -m pytest`: refused up front, naming the interpreter, where pytest is not there."""
    try:
        probe = subprocess.run([python, "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec('pytest') is None)"],
                               capture_output=True, timeout=15, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot run Python interpreter {python}: {exc}") from exc
    if probe.returncode != 0:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"mode 'test' runs pytest, which {python} cannot import: install "
                         f"it with `{python} -m pip install pytest`, or give `python`, the interpreter the project's "
                         "tests run on")


def _connect_back(pid: int, host: str, port: int) -> None:
    """Run in `pid` what debugpy's own injector runs there: start its debug server, connecting to the
    adapter at host:port. The code may run after `run_python` returns; it says by a file (written by
    the process, read back here) that it has run, and what went wrong if it failed."""
    if not inject.runs_python(pid):
        raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} is not a Python process (no Python interpreter "
                         "in its executable or libraries); for a native program use adapter lldb or gdb")
    setup = {"mode": "connect", "address": [host, port], "log_to": None, "adapter_access_token": None,
             "wait_for_client": False}
    # the folder is made in the process's own /tmp, which a container or a service's PrivateTmp keeps apart
    theirs = f"/proc/{pid}/root/tmp" if os.path.isdir(f"/proc/{pid}/root/tmp") else None
    with tempfile.TemporaryDirectory(prefix="dap2mcp-attach-", dir=theirs) as ours:
        folder = f"/tmp/{Path(ours).name}" if theirs else ours  # as the process names it
        os.chmod(ours, 0o1733)  # the process may run as another user: it may write here, not list or delete
        outcome = Path(ours) / "outcome"
        attach = "\n".join((
            "import os, sys",
            f"if os.path.isdir({folder!r}):  # else queued, and run after dap2mcp gave up waiting",
            "    failure = ''",
            "    try:",
            "        pydevd = sys.modules.get('pydevd')  # attached before: the debugger left behind connects no more",
            "        if pydevd is not None and pydevd.get_global_debugger() is not None:",
            "            pydevd.stoptrace()",
            "            from _pydevd_bundle.pydevd_constants import GlobalDebuggerHolder",
            "            GlobalDebuggerHolder.global_dbg = None",
            f"        sys.path.insert(0, {str(DEBUGPY_DIR / 'server')!r}); import attach_pid_injected",
            f"        del sys.path[0]; attach_pid_injected.attach({setup!r})",
            "    except BaseException as e:",
            "        failure = type(e).__name__ + ': ' + str(e)",
            f"    with open({folder + '/written'!r}, 'x') as out:",
            "        out.write(failure)",
            f"    os.rename({folder + '/written'!r}, {folder + '/outcome'!r})  # whole, or not there",
        ))
        ran = inject.run_python(pid, inject.quietly(attach))
        deadline = time.monotonic() + INJECTED_CODE_WAIT
        while not (outcome.exists() and outcome.stat().st_uid == inject.owner(pid)):  # the process's, no one else's
            if ran:  # and said nothing: it could not write there
                return
            if not processes.pid_alive(pid):
                raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} ended before it ran the injected code")
            if time.monotonic() > deadline:
                raise DebugError(ErrorCode.TIMEOUT, f"process {pid} did not run Python code for {INJECTED_CODE_WAIT:g}s "
                                 "after the attach: its main thread is inside a long call into C code, or stopped. "
                                 "Attach when it runs Python again")
            time.sleep(0.02)
        if failure := outcome.read_text(errors="replace"):
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"debugpy could not start inside process {pid}: {failure[:500]}")


def stack_files(pid: int, wait: float) -> list[str]:
    """The source files of the frames on every thread's stack in process `pid`, read by the process itself
    (code injected as for an attach by pid): debugpy names no frame of a thread that is running, and none of
    library code. Empty where the process could not be made to say within `wait` seconds (blocking)."""
    report = "\n".join((
        "import os, sys",
        "files = set()",
        "for frame in sys._current_frames().values():",
        "    while frame is not None:",
        "        files.add(frame.f_code.co_filename)",
        "        if frame.f_globals.get('__name__') == '__main__' and os.path.isabs(frame.f_code.co_filename):",
        "            break",  # the program's outermost frame (not this code's): what called it is the launcher's
        "        frame = frame.f_back",
        "answer = sorted(files)",
    ))
    files = inject.ask(pid, report, wait)
    return [f for f in files if isinstance(f, str) and os.path.isabs(f)] if isinstance(files, list) else []


DEBUGPY = DebugpyProfile(
    name="debugpy",
    adapter_id="debugpy",
    language="python",
    extensions=(".py",),
    # the adapter is the debugpy package beside dap2mcp itself; the program runs on the user's python3
    tools=(Tool("runtime", ("python3",), package="python3"),
           Tool("adapter", (sys.executable,), note="pip install debugpy (into dap2mcp's own environment)",
                version_command=(sys.executable, "-c", "import debugpy; print('debugpy', debugpy.__version__)"),
                label="debugpy")),
    values=ValueShapes(unordered=frozenset({"set", "frozenset"}),  # debugpy names a member by its id()
                       callables=frozenset({"method", "builtin_function_or_method", "method-wrapper", "function",
                                            "method_descriptor", "wrapper_descriptor", "classmethod_descriptor"}),
                       # pydevd's repr: `...` closes a cut container, `[...]` one nested past two levels
                       elided=re.compile(r"\.\.\.[\]})]|^<[\w.]+ object at 0x[0-9a-fA-F]+>$")),
    launch=LaunchRules(
        start_failure_markers=("Attach to PID failed",),
        # debugpy asks pydevd to treat a condition that raises as false, and to keep a NameError quiet: a misspelt
        # or renamed variable would make the breakpoint never stop, without a word. Stopped there, the stop says why.
        configuration=(("setDebuggerProperty", {"skipSuspendOnBreakpointException": [], "skipPrintBreakpointException": []}),),
        path_map=PathMapSpelling("pathMappings", local="localRoot", remote="remoteRoot"),
        plans_before_ready=True,  # the interpreter is found by name, the program runs from its source
        tests=TestRunner(
            runner="pytest",
            # pytest catches every failure; an exception that leaves the project's code (the test's, or code it
            # calls) for pytest's is where a test fails, and the stop shows the frame the exception was raised in
            stop_filters=("userUnhandled",),
            failure_check="__import__('dap2mcp_pytest_failure').failed()",
            nothing_selected_exit=5,
        ),
    ),
    program=ProgramRules(
        follows_children=True,
    ),
    output=OutputRules(
        launcher_frames=re.compile(r'  File "[^"\n]*(?:/debugpy/(?:[^"\n]*/)?(?:__main__|cli|pydevd_runpy)|/python3[^/"\n]*/runpy)'
                                   r'\.py", line \d+, in .*\n'),
        # debugpy's and pydevd's words (a condition's error, warnings) come as "console" and "important": the
        # agent reads them as `adapterOutput`, less pydevd's advice at a step in that passed over library code,
        # which points at a launch.json the agent does not have (the step's `hint` says what to do)
        program_categories=("stdout", "stderr"),
        own_categories=("console", "important"),
        console_noise=re.compile(r"^Frame skipped from debugging during step-in\.(?:\nNote: [^\n]*launch\.json\)\.)?\n?",
                                 re.MULTILINE),
        output_mark="(lambda os, site, ready: next((f for f in (1, 2) if (lambda s: (s.st_dev, s.st_ino))(os.fstat(f))"
                    " == getattr(site, 'DAP2MCP_OUTPUT_PIPE', None) and ready([], [f], [], 0)[1]"
                    " and os.write(f, ({mark} % f).encode())), None))"
                    "(__import__('os'), __import__('sys').modules.get('sitecustomize'), __import__('select').select)",
    ),
    stops=StopRules(
        return_value=re.compile(r"^\(return\) (?P<function>.+)$"),  # with showReturnValue
        exception_category="Python Exceptions",
        exception_modes=(("raised", "always"), ("uncaught", "unhandled"), ("userUnhandled", "userUnhandled")),
        frame_mark=re.compile(r" \(Current frame\)$", re.MULTILINE),
        exception_note=re.compile(r"\s+\(note: full exception trace is shown but execution is paused at: (?P<frame>.*)\)$"),
        uncaught_unwound=True,
        own_frame=OwnFrame(python_lines.shared_lines, "'.0' not in locals()"),  # a comprehension's iterator: .0
        steps_over_library=True,
        stops_every_thread=False,
        steady_ids=True,
        step_ready_check="(lambda t: t is None or getattr(getattr(t, 'additional_info', None), 'is_in_wait_loop', False))("
                         "__import__('_pydevd_bundle.pydevd_thread_lifecycle', fromlist=['_']).pydevd_find_thread_by_id("
                         "__import__('_pydevd_bundle._debug_adapter.pydevd_base_schema', fromlist=['_'])"
                         ".BaseSchema._translate_id_from_dap({thread})))",
    ),
    evaluation=EvaluationRules(
        hidden_variables=frozenset({"special variables", "function variables", "class variables",
                                    "protected variables", "len()"}),
        cut_markers=frozenset({"Unable to handle:"}),  # pydevd stops at PYDEVD_CONTAINER_RANDOM_ACCESS_MAX_ITEMS
        capture_helper="_pydevd_capture.py",
        scopes_on_request=frozenset({"globals"}),  # at module level they are the Locals again
        scope_assignments=(("Globals", "globals()[{name!r}]"),),
        evaluation_limit="__import__('_pydevd_bundle.pydevd_constants', fromlist=['_']).PYDEVD_INTERRUPT_THREAD_TIMEOUT"
                         " = {seconds}",
        scopes_by_frame=True,  # pydevd's on_scopes_request (debugpy 1.8.22): Locals and Globals, built from the id alone
    ),
    breakpoints=BreakpointRules(
        log_percent_formats=True,
        # the program counts hits under the breakpoint's id, in a dict of its builtins that outlives pydevd's
        # breakpoint objects (made anew at each setBreakpoints of the file)
        counted_hits="(lambda hits: hits.__setitem__({key}, hits.get({key}, 0) + 1) or hits[{key}])"
                     "(__import__('builtins').__dict__.setdefault('__dap2mcp_hits__', {{}}))",
        statement_lines=python_lines.statement_lines,
    ),
    watches=WatchRules(
        watch_instead="put a breakpoint with a condition on each line that assigns it (search the code for "
                      "`name =`, `.field =`, `[i] =`), e.g. {file, line, condition: \"total < 0\"}, and `step` over it: "
                      "the result's `changes` give the old and new value",
    ),
    console=ConsoleRules(
        memory_instead="a Python value has no raw memory to read through debugpy: read it with `evaluate` instead "
                       "(`repr(x)`, `bytes(b).hex()`, `vars(obj)`)",
    ),
)
