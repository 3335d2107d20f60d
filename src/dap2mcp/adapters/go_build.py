"""Go programs and test binaries, built by dap2mcp as C, C++ and Rust ones are: `go build` (or `go test -c`) with
optimisation and inlining off, into the cache, in a process group killed past the build timeout, its errors as
BUILD_FAILED cut to what the agent needs; Delve then runs the executable (its `exec` mode).

Delve can build a program itself inside `launch`, but then a build that hangs (a module proxy that does not
answer) holds the launch for minutes, a `restart` whose build fails has already ended the running program, and
the compiler's words arrive wrapped in Delve's advice. Built here, none of that happens.

A package is a directory; a module's root, a workspace (`go.work`) or a lone `.go` file is resolved to one first.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from dataclasses import dataclass

from ..errors import DebugError, ErrorCode
from .base import Tool
from .build import BUILD_TIMEOUT, MESSAGE_CHARS, output_for, run_tool

GO = Tool("compiler", ("go",), version_argv=("version",), package="golang-go")

UNOPTIMISED = "-gcflags=all=-N -l"
"""As Delve builds: every variable kept and every call a frame of its own, in the program and its modules."""

NOISE = re.compile(r"^go: (?:downloading|finding|extracting) .*\n?", re.M)
"""The go command's progress while it fetches modules: no part of why a build failed."""

LIST_TIMEOUT = 60.0


@dataclass(frozen=True)
class Package:
    """What one Go build is of: the package's directory (where go runs, and the tests run), what to name there
    (`.`, or a lone file), and the go.work it was found through where go would not find it from that directory
    (a workspace whose modules lie beside its folder, not below it)."""

    directory: str
    name: str = "."
    workspace: str | None = None

    def environment(self, env: dict[str, str]) -> dict[str, str]:
        return {**os.environ, **env, **({"GOWORK": self.workspace} if self.workspace else {})}


class Deadline:
    """The call's `timeout`, shared by the go commands that may wait on the module proxy (each one is bounded by
    what is left of it, and by the build bound)."""

    def __init__(self, seconds: float | None) -> None:
        self.limit = min(seconds or BUILD_TIMEOUT, BUILD_TIMEOUT)
        self.ends = time.monotonic() + self.limit

    def left(self) -> float:
        return max(self.ends - time.monotonic(), 0.5)

    def run(self, command: list[str], cwd: str, env: dict[str, str], doing: str) -> tuple[int, str]:
        cut = self.limit < BUILD_TIMEOUT
        return run_tool(command, cwd=cwd, env=env, timeout=self.left(),
                        why=f" {doing}" + (" (the call's timeout: a first build that fetches many modules may need a "
                                           "larger one; what was fetched is kept)" if cut else ""))


def build(package: Package, *, tests: bool, env: dict[str, str], deadline: Deadline) -> str:
    """`package` (see `resolve`) built for debugging; returns the executable. The modules it imports are fetched
    first, within what is left of `deadline` (a module proxy that does not answer holds the go command without
    end); the build itself is bounded as every build is."""
    environment = package.environment(env)
    _fetch(package, environment, tests, deadline)
    output = output_for(os.path.join(package.directory, package.name) + (".test" if tests else ""))
    output.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=output.parent, prefix=output.name + ".", suffix=".partial")
    os.close(handle)
    os.unlink(partial)  # `go test -c` leaves no file for a package without tests: its absence says so
    command = [GO.require("delve"), *(["test", "-c"] if tests else ["build"]), UNOPTIMISED, "-o", partial, package.name]
    try:
        code, text = run_tool(command, cwd=package.directory, env=environment)
        if code != 0:
            raise DebugError(ErrorCode.BUILD_FAILED, f"go {command[1]} failed (exit {code}):\n{useful(text)}")
        if not os.path.exists(partial):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{package.directory} has no tests: "
                             f"{useful(text) or 'go test built nothing'}")
        os.replace(partial, output)  # atomic: a concurrent session never runs a half-written executable
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
    return str(output)


def _fetch(package: Package, env: dict[str, str], tests: bool, deadline: Deadline) -> None:
    """The modules the package (and its tests) imports, fetched where they are not in the module cache: `go list`
    resolves every import, so it fetches what the build would, and fails as the build would where one cannot be."""
    command = [GO.require("delve"), "list", "-deps", *(["-test"] if tests else []), "-f", '{{""}}', package.name]
    code, text = deadline.run(command, package.directory, env, "fetching modules")
    if code != 0:
        raise DebugError(ErrorCode.BUILD_FAILED, f"go could not find the packages the program imports (go list, exit "
                         f"{code}):\n{useful(text)}")


def useful(text: str) -> str:
    """The go command's words without its download progress, at most MESSAGE_CHARS of them."""
    text = "\n".join(line for line in NOISE.sub("", text).splitlines() if line.strip())
    if len(text) > MESSAGE_CHARS:
        text = text[:MESSAGE_CHARS] + f"\n… ({len(text) - MESSAGE_CHARS} more characters)"
    return text


def resolve(program: str, *, tests: bool, env: dict[str, str], deadline: Deadline) -> Package:
    """The package to build for `program` (a file, a package directory, a module's root or a workspace's folder),
    found within what is left of `deadline`. A .go file that shares its directory with other Go files is one file
    of a package: the package. A directory that is not itself what is asked for (a module's root holding a
    library, a workspace's folder): the one package below it that is a program (mode `test`: that has tests)."""
    if not os.path.isdir(program):
        home, name = os.path.split(program)
        return Package(home) if lone_file_or_package(program) != program else Package(home, name)
    listed = _listed(program, ["."], {**os.environ, **env}, deadline, quiet=True)
    if listed and _fits(listed[0], tests):
        return Package(program)
    return _one_package(program, tests, env, deadline)


def lone_file_or_package(program: str) -> str:
    """A .go file, or its directory where other (non-test) Go files there make a package of it."""
    if not program.endswith(".go") or program.endswith("_test.go") or not os.path.isfile(program):
        return program
    home, name = os.path.split(program)
    others = [n for n in os.listdir(home or ".") if n.endswith(".go") and n != name and not n.endswith("_test.go")]
    return home if others else program


def has_go_files(directory: str) -> bool:
    return any(name.endswith(".go") for name in os.listdir(directory))


def is_workspace(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "go.work"))


def is_module_or_workspace(directory: str) -> bool:
    return is_workspace(directory) or os.path.isfile(os.path.join(directory, "go.mod"))


def is_go_project(directory: str) -> bool:
    """A Go package, a module's root or a workspace's folder."""
    return has_go_files(directory) or is_module_or_workspace(directory)


SHAPE = "{{.Dir}}\t{{.Name}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}"
"""How `go list` is asked to describe a package: its directory, its name (`main` for a program; build constraints
applied), and its counts of test files."""


def _fits(package: list[str], tests: bool) -> bool:
    return (package[2], package[3]) != ("0", "0") if tests else package[1] == "main"


def _one_package(root: str, tests: bool, env: dict[str, str], deadline: Deadline) -> Package:
    """The one main package (or, for tests, the one package with tests) below `root`, by `go list`: over a
    workspace's modules (which may lie beside its folder: go is then told the go.work), else over the module's
    packages there; INVALID_ARGUMENT naming them where there are several or none."""
    workspace = os.path.join(root, "go.work") if is_workspace(root) and not has_go_files(root) else None
    environment = {**os.environ, **env}
    if workspace:  # by directory: a module's path pattern would have go resolve its requirements of the others at
        # the proxy
        modules = _go_list([GO.require("delve"), "list", "-m", "-f", "{{.Dir}}"], root, environment, deadline)
        patterns = [os.path.join(d, "...") for d in modules if os.path.isabs(d)]
    else:
        patterns = ["./..."]
    fits = [p[0] for p in _listed(root, patterns, environment, deadline) if _fits(p, tests)]
    if len(fits) == 1:
        return Package(fits[0], workspace=workspace)
    one, many = ("package with tests", "packages with tests") if tests else ("main package", "main packages")
    if not fits:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{root} has no {one}" + ("" if tests else
                         ": a library is debugged through its tests (mode 'test') or a program that uses it"))
    raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{root} has {len(fits)} {many} (one is debugged at a time): give "
                     f"one's directory in path: {', '.join(os.path.relpath(f, root) for f in fits)}")


def _listed(root: str, patterns: list[str], env: dict[str, str], deadline: Deadline,
            quiet: bool = False) -> list[list[str]]:
    """The packages `patterns` name, each as SHAPE describes it; none where go lists none and `quiet`."""
    command = [GO.require("delve"), "list", "-f", SHAPE, *patterns]
    try:
        lines = _go_list(command, root, env, deadline)
    except DebugError:
        if quiet:
            return []
        raise
    return [p for p in (line.split("\t") for line in lines) if len(p) == 4]


def _go_list(command: list[str], root: str, env: dict[str, str], deadline: Deadline) -> list[str]:
    code, text = deadline.run(command, root, env, "listing packages")
    if code != 0:
        raise DebugError(ErrorCode.BUILD_FAILED, f"{' '.join(command[1:3])} in {root} failed:\n{useful(text)}")
    return [line for line in text.splitlines() if line.strip() and not NOISE.match(line)]
