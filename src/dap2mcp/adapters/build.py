"""Compiling a source file for mode `source`: debug info on, optimisation off, errors as BUILD_FAILED.

The executable goes to a per-source directory in the user's cache rather than beside the source,
so debugging never writes into the user's project; rebuilding the same source overwrites its
previous build, so the cache stays one executable per source file.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import subprocess
import tempfile
from pathlib import Path

from .. import processes
from ..errors import DebugError, ErrorCode

BUILD_TIMEOUT = 180.0
MESSAGE_CHARS = 4000


def cache_dir() -> Path:
    root = os.environ.get("DAP2MCP_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "dap2mcp")
    return Path(root)


def output_for(source: str) -> Path:
    key = hashlib.sha256(os.path.realpath(source).encode()).hexdigest()[:16]
    return cache_dir() / "build" / key / Path(source).stem


def build(compiler: str, arguments: tuple[str, ...], source: str) -> str:
    """`source` compiled by the executable `compiler` with `arguments` ({source} and {output} filled in);
    returns the executable's path."""
    if not os.path.isfile(source):
        raise DebugError(ErrorCode.FILE_NOT_FOUND, f"program not found: {source}")
    output = output_for(source)
    output.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=output.parent, prefix=output.name + ".", suffix=".partial")
    os.close(handle)
    command = [compiler, *(a.format(source=source, output=partial) for a in arguments)]
    try:
        code, text = run_tool(command, cwd=os.path.dirname(source))
        if code != 0:
            if len(text) > MESSAGE_CHARS:
                text = text[:MESSAGE_CHARS] + f"\n… ({len(text) - MESSAGE_CHARS} more characters)"
            raise DebugError(ErrorCode.BUILD_FAILED, f"{os.path.basename(command[0])} failed (exit {code}):\n{text}")
        os.replace(partial, output)  # atomic: a concurrent session never runs a half-written executable
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
    return str(output)


def run_tool(command: list[str], cwd: str, env: dict[str, str] | None = None, timeout: float = BUILD_TIMEOUT,
             why: str = "") -> tuple[int, str]:
    """The compiler (or cargo, or go) and whatever it runs (cc1, as, ld) in a process group of their own, all killed
    on a timeout (`why` says whose, where it is not the build's own), and all dying with the server."""
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=processes.child_setup)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        said, _ = proc.communicate()
        said = said.decode("utf-8", "replace").strip()
        raise DebugError(ErrorCode.BUILD_FAILED, f"{os.path.basename(command[0])} did not finish within {timeout:g}s"
                         f"{why}" + (f"; it had said:\n{said[-MESSAGE_CHARS:]}" if said else "")) from exc
    return proc.returncode, out.decode("utf-8", "replace").strip()
