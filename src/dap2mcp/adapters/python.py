"""debugpy: Python programs, scripts or `-m module` targets, launched, attached by pid, or reached where
`debugpy --listen` runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import debugpy

from .. import processes
from ..errors import DebugError, ErrorCode
from . import inject
from .base import AdapterProfile, AdapterStart, Summon, Target, Tool

SITE_DIR = str(Path(__file__).parent / "_site")
DEBUGPY_DIR = Path(debugpy.__file__).parent
INJECTED_CODE_WAIT = 20.0
"""How long a process may take to run the code queued in it: below the handshake's 30 s, so the
error says why."""


def find_python(requested: str | None) -> str:
    """The debuggee's interpreter: the one asked for, else the first python3 on PATH (a venv's)."""
    candidate = requested or shutil.which("python3") or sys.executable
    resolved = shutil.which(candidate) if os.path.sep not in candidate else candidate
    if not resolved or not os.access(resolved, os.X_OK):
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"Python interpreter not found: {candidate}")
    return resolved


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
    def prepare(self, target: Target) -> tuple[Target, str | None]:
        if target.mode in ("attach", "connect"):
            return target, None
        return target, python_version(find_python(target.python))

    def plan(self, target: Target) -> AdapterStart:
        argv = [sys.executable, "-m", "debugpy.adapter"]
        common = {"name": "dap2mcp", "type": "python", "justMyCode": True}
        if target.mode == "attach" and inject.supported():  # the adapter listens; the process is made to call
            listen = {"host": "127.0.0.1", "port": 0}
            return AdapterStart(argv, "attach", {**common, "request": "attach", "listen": listen},
                                summon=Summon("debugpyWaitingForServer", partial(_connect_back, target.process_id),
                                              target.process_id))
        if target.mode == "attach":  # debugpy injects with gdb
            return AdapterStart(argv, "attach", {**common, "request": "attach", "processId": target.process_id})
        if target.mode == "connect":  # `python -m debugpy --listen host:port prog.py` runs an adapter there
            return AdapterStart([], "attach", {**common, "request": "attach"}, address=target.address)

        env = dict(target.env)
        inherited = env.get("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (SITE_DIR, inherited) if p)
        env["DAP2MCP_MERGE_STDERR"] = "1"
        if target.tcp_nodelay:
            env["DAP2MCP_TCP_NODELAY"] = "1"
        arguments = {
            **common,
            "request": "launch",
            "python": [find_python(target.python)],
            "args": list(target.args),
            "cwd": target.cwd or os.getcwd(),
            "env": env,
            "console": "internalConsole",
            "stopOnEntry": target.stop_on_entry,
            # a child Python process would wait for a debugger that nobody attaches
            "subProcess": False,
        }
        if target.module:
            arguments["module"] = target.module
        else:
            arguments["program"] = target.path
        return AdapterStart(argv, "launch", arguments)


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
            f"        sys.path.insert(0, {str(DEBUGPY_DIR / 'server')!r}); import attach_pid_injected",
            f"        del sys.path[0]; attach_pid_injected.attach({setup!r})",
            "    except BaseException as e:",
            "        failure = type(e).__name__ + ': ' + str(e)",
            f"    with open({folder + '/written'!r}, 'x') as out:",
            "        out.write(failure)",
            f"    os.rename({folder + '/written'!r}, {folder + '/outcome'!r})  # whole, or not there",
        ))
        # in a namespace of its own, so the program's __main__ gets no names; and nothing may get out
        code = f"try:\n    exec({attach!r}, {{}})\nexcept BaseException:\n    pass\n"
        ran = inject.run_python(pid, code)
        deadline = time.monotonic() + INJECTED_CODE_WAIT
        while not (outcome.exists() and outcome.stat().st_uid == _owner(pid)):  # the process's, no one else's
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


def _owner(pid: int) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None


DEBUGPY = DebugpyProfile(
    name="debugpy",
    adapter_id="debugpy",
    language="python",
    extensions=(".py",),
    # the adapter is the debugpy package beside dap2mcp itself; the program runs on the user's python3
    tools=(Tool("runtime", ("python3",), install="apt-get install -y python3"),
           Tool("adapter", (sys.executable,), install="pip install debugpy (into dap2mcp's own environment)",
                version_command=(sys.executable, "-c", "import debugpy; print('debugpy', debugpy.__version__)"),
                label="debugpy")),
    start_failure_markers=("Attach to PID failed",),
    hidden_variables=frozenset({"special variables", "function variables", "class variables",
                                "protected variables", "len()"}),
    cut_markers=frozenset({"Unable to handle:"}),  # pydevd stops at PYDEVD_CONTAINER_RANDOM_ACCESS_MAX_ITEMS
    capture_helper="_pydevd_capture.py",
    exception_category="Python Exceptions",
    exception_modes=(("raised", "always"), ("uncaught", "unhandled"), ("userUnhandled", "userUnhandled")),
    scope_assignments=(("Globals", "globals()[{name!r}]"),),
    log_percent_formats=True,
    conditions_combine=False,  # pydevd stops when the hit condition holds, whatever the condition says
    # debugpy asks pydevd to treat a condition that raises as false, and to keep a NameError quiet: a misspelt
    # or renamed variable would make the breakpoint never stop, without a word. Stopped there, the stop says why.
    configuration=(("setDebuggerProperty", {"skipSuspendOnBreakpointException": [], "skipPrintBreakpointException": []}),),
    steady_ids=True,
    plans_before_ready=True,  # the interpreter is found by name, the program runs from its source
    scopes_by_frame=True,  # pydevd's on_scopes_request (debugpy 1.8.22): Locals and Globals, built from the id alone
)
