"""Compiling a source file for mode `source`: debug info on, optimisation off, errors as BUILD_FAILED.

The executable goes to a per-source directory in the user's cache rather than beside the source,
so debugging never writes into the user's project; rebuilding the same source overwrites its
previous build, so the cache stays one executable per source file.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

from ..errors import DebugError, ErrorCode
from .base import Compiler

BUILD_TIMEOUT = 180.0
MESSAGE_CHARS = 4000


def cache_dir() -> Path:
    root = os.environ.get("DAP2MCP_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "dap2mcp")
    return Path(root)


def output_for(source: str) -> Path:
    key = hashlib.sha256(os.path.realpath(source).encode()).hexdigest()[:16]
    return cache_dir() / "build" / key / Path(source).stem


def build(profile: str, compiler: Compiler, source: str) -> str:
    if not os.path.isfile(source):
        raise DebugError(ErrorCode.FILE_NOT_FOUND, f"program not found: {source}")
    output = output_for(source)
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_name(output.name + f".{os.getpid()}.partial")
    command = [compiler.tool.require(profile), *(a.format(source=source, output=partial) for a in compiler.argv)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=BUILD_TIMEOUT,
                              stdin=subprocess.DEVNULL, cwd=os.path.dirname(source), start_new_session=True)
    except subprocess.TimeoutExpired as exc:
        raise DebugError(ErrorCode.BUILD_FAILED, f"{command[0]} did not finish within {BUILD_TIMEOUT:g}s") from exc
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        text = (done.stderr + done.stdout).strip()
        if len(text) > MESSAGE_CHARS:
            text = text[:MESSAGE_CHARS] + f"\n… ({len(text) - MESSAGE_CHARS} more characters)"
        raise DebugError(ErrorCode.BUILD_FAILED,
                         f"{os.path.basename(command[0])} failed (exit {done.returncode}):\n{text}")
    os.replace(partial, output)  # atomic: a concurrent session never runs a half-written executable
    return str(output)
