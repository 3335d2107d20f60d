"""Go programs and test binaries, built by dap2mcp as C, C++ and Rust ones are: `go build` (or `go test -c`) with
optimisation and inlining off, into the cache, in a process group killed past the build timeout, its errors as
BUILD_FAILED cut to what the agent needs; Delve then runs the executable (its `exec` mode).

Delve can build a program itself inside `launch`, but then a build that hangs (a module proxy that does not
answer) holds the launch for minutes, a `restart` whose build fails has already ended the running program, and
the compiler's words arrive wrapped in Delve's advice. Built here, none of that happens.

A package is a directory; a module, a workspace (`go.work`) or a lone `.go` file is resolved to one first.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import tempfile

from ..errors import DebugError, ErrorCode
from .base import Tool
from .build import MESSAGE_CHARS, output_for, run_tool

GO = Tool("compiler", ("go",), version_argv=("version",), install="apt-get install -y golang-go")

UNOPTIMISED = "-gcflags=all=-N -l"
"""As Delve builds: every variable kept and every call a frame of its own, in the program and its modules."""

NOISE = re.compile(r"^go: (?:downloading|finding|extracting) .*\n?", re.M)
"""The go command's progress while it fetches modules: no part of why a build failed."""

LIST_TIMEOUT = 60.0


def build(program: str, *, tests: bool, env: dict[str, str]) -> tuple[str, str]:
    """The package of `program` (a file, a package directory, a module or a workspace) built for debugging:
    returns the executable and the package's directory, where `go test` would run its tests."""
    package = package_of(program, tests=tests)
    home = package if os.path.isdir(package) else os.path.dirname(package)
    output = output_for(package + (".test" if tests else ""))
    output.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=output.parent, prefix=output.name + ".", suffix=".partial")
    os.close(handle)
    os.unlink(partial)  # `go test -c` leaves no file for a package without tests: its absence says so
    target = "." if os.path.isdir(package) else os.path.basename(package)
    command = [GO.require("delve"), *(["test", "-c"] if tests else ["build"]), UNOPTIMISED, "-o", partial, target]
    try:
        code, text = run_tool(command, cwd=home, env={**os.environ, **env})
        if code != 0:
            raise DebugError(ErrorCode.BUILD_FAILED, f"go {command[1]} failed (exit {code}):\n{useful(text)}")
        if not os.path.exists(partial):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{home} has no tests: {useful(text) or 'go test built nothing'}")
        os.replace(partial, output)  # atomic: a concurrent session never runs a half-written executable
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
    return str(output), home


def useful(text: str) -> str:
    """The go command's words without its download progress, at most MESSAGE_CHARS of them."""
    text = NOISE.sub("", text).strip()
    if len(text) > MESSAGE_CHARS:
        text = text[:MESSAGE_CHARS] + f"\n… ({len(text) - MESSAGE_CHARS} more characters)"
    return text


def package_of(program: str, *, tests: bool = False) -> str:
    """The package to build for `program`. A .go file that shares its directory with other Go files is one file of
    a package: the package. A workspace's folder (a `go.work` and no Go files of its own): the one package of its
    modules that is a program (mode `test`: that has tests)."""
    if os.path.isdir(program):
        if not has_go_files(program) and os.path.isfile(os.path.join(program, "go.work")):
            return _workspace_package(program, tests)
        return program
    if not program.endswith(".go") or program.endswith("_test.go"):
        return program
    home, name = os.path.split(program)
    others = [n for n in os.listdir(home or ".") if n.endswith(".go") and n != name and not n.endswith("_test.go")]
    return home if others else program


def has_go_files(directory: str) -> bool:
    return any(name.endswith(".go") for name in os.listdir(directory))


def is_workspace(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "go.work"))


def _workspace_package(root: str, tests: bool) -> str:
    """The workspace's one main package (or, for tests, its one package with tests), by `go list` over its
    modules; INVALID_ARGUMENT naming them where there are several or none."""
    go = GO.require("delve")
    modules = _go_list([go, "list", "-m", "-f", "{{.Path}}/..."], root)
    shape = "{{.Dir}}\t{{.Name}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}"
    packages = [line.split("\t") for line in _go_list([go, "list", "-f", shape, *modules], root)]
    fits = [p[0] for p in packages if len(p) == 4 and ((p[2], p[3]) != ("0", "0") if tests else p[1] == "main")]
    if len(fits) == 1:
        return fits[0]
    what = "package with tests" if tests else "main package"
    if not fits:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"the Go workspace {root} has no {what} in its modules")
    raise DebugError(ErrorCode.INVALID_ARGUMENT, f"the Go workspace {root} has {len(fits)} {what}s: give one's "
                     f"directory in path: {', '.join(os.path.relpath(f, root) for f in fits)}")


def _go_list(command: list[str], root: str) -> list[str]:
    try:
        listed = subprocess.run(command, cwd=root, capture_output=True, text=True, errors="replace",
                                timeout=LIST_TIMEOUT, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DebugError(ErrorCode.BUILD_FAILED, f"{' '.join(command[:3])} in {root} did not answer: {exc}") from exc
    if listed.returncode != 0:
        raise DebugError(ErrorCode.BUILD_FAILED, f"{' '.join(command[:3])} in {root} failed:\n{useful(listed.stderr)}")
    return [line for line in listed.stdout.splitlines() if line.strip()]
