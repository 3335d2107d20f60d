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
import subprocess
import tempfile

from ..errors import DebugError, ErrorCode
from .base import Tool
from .build import BUILD_TIMEOUT, MESSAGE_CHARS, output_for, run_tool

GO = Tool("compiler", ("go",), version_argv=("version",), install="apt-get install -y golang-go")

UNOPTIMISED = "-gcflags=all=-N -l"
"""As Delve builds: every variable kept and every call a frame of its own, in the program and its modules."""

NOISE = re.compile(r"^go: (?:downloading|finding|extracting) .*\n?", re.M)
"""The go command's progress while it fetches modules: no part of why a build failed."""

LIST_TIMEOUT = 60.0


def build(program: str, *, tests: bool, env: dict[str, str], within: float | None = None) -> tuple[str, str]:
    """The package of `program` (a file, a package directory, a module or a workspace) built for debugging:
    returns the executable and the package's directory, where `go test` would run its tests. The modules it
    needs are fetched first, in at most `within` seconds (the call's timeout): a module proxy that does not
    answer holds the go command without end. The build itself is bounded as every build is."""
    package = package_of(program, tests=tests)
    home = package if os.path.isdir(package) else os.path.dirname(package)
    target = "." if os.path.isdir(package) else os.path.basename(package)
    go, env = GO.require("delve"), {**os.environ, **env}
    _fetch(go, target, home, env, tests, min(within or BUILD_TIMEOUT, BUILD_TIMEOUT))
    output = output_for(package + (".test" if tests else ""))
    output.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=output.parent, prefix=output.name + ".", suffix=".partial")
    os.close(handle)
    os.unlink(partial)  # `go test -c` leaves no file for a package without tests: its absence says so
    command = [go, *(["test", "-c"] if tests else ["build"]), UNOPTIMISED, "-o", partial, target]
    try:
        code, text = run_tool(command, cwd=home, env=env)
        if code != 0:
            raise DebugError(ErrorCode.BUILD_FAILED, f"go {command[1]} failed (exit {code}):\n{useful(text)}")
        if not os.path.exists(partial):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{home} has no tests: {useful(text) or 'go test built nothing'}")
        os.replace(partial, output)  # atomic: a concurrent session never runs a half-written executable
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
    return str(output), home


def _fetch(go: str, target: str, home: str, env: dict[str, str], tests: bool, limit: float) -> None:
    """The modules the package (and its tests) imports, fetched where they are not in the module cache: `go list`
    resolves every import, so it fetches what the build would, and fails as the build would where one cannot be."""
    command = [go, "list", "-deps", *(["-test"] if tests else []), "-f", "", target]
    code, text = run_tool(command, cwd=home, env=env, timeout=limit,
                          why=" fetching modules (the call's timeout: a first build that fetches many may need a "
                              "larger one; what was fetched is kept)" if limit < BUILD_TIMEOUT else " fetching modules")
    if code != 0:
        said = "\n".join(line for line in text.splitlines() if line.strip())
        raise DebugError(ErrorCode.BUILD_FAILED, f"go could not find the packages the program imports (go list, exit "
                         f"{code}):\n{useful(said)}")


def useful(text: str) -> str:
    """The go command's words without its download progress, at most MESSAGE_CHARS of them."""
    text = NOISE.sub("", text).strip()
    if len(text) > MESSAGE_CHARS:
        text = text[:MESSAGE_CHARS] + f"\n… ({len(text) - MESSAGE_CHARS} more characters)"
    return text


def package_of(program: str, *, tests: bool = False) -> str:
    """The package to build for `program`. A .go file that shares its directory with other Go files is one file of
    a package: the package. A directory that is not itself what is asked for (a module's root holding a library, a
    workspace's folder): the one package below it that is a program (mode `test`: that has tests)."""
    if os.path.isdir(program):
        return program if _is_asked(program, tests) else _one_package(program, tests)
    if not program.endswith(".go") or program.endswith("_test.go"):
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


def _is_asked(directory: str, tests: bool) -> bool:
    """A package with tests, or a main package (by its files' package clause)."""
    names = [n for n in os.listdir(directory) if n.endswith(".go")]
    if tests:
        return any(n.endswith("_test.go") for n in names)
    for name in names:
        if not name.endswith("_test.go"):
            with contextlib.suppress(OSError), open(os.path.join(directory, name), errors="replace") as file:
                return bool(MAIN_PACKAGE.search(file.read(65536)))
    return False


MAIN_PACKAGE = re.compile(r"^package\s+main\b", re.M)


def _one_package(root: str, tests: bool) -> str:
    """The one main package (or, for tests, the one package with tests) below `root`, by `go list`: over a
    workspace's modules, else over the module's packages there; INVALID_ARGUMENT naming them where there are
    several or none."""
    go = GO.require("delve")
    if is_workspace(root) and not has_go_files(root):  # by directory: a module's path pattern would have go
        # resolve its requirements of the others at the proxy
        patterns = [os.path.join(d, "...") for d in _go_list([go, "list", "-m", "-f", "{{.Dir}}"], root)]
    else:
        patterns = ["./..."]
    shape = "{{.Dir}}\t{{.Name}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}"
    packages = [line.split("\t") for line in _go_list([go, "list", "-f", shape, *patterns], root)]
    fits = [p[0] for p in packages if len(p) == 4 and ((p[2], p[3]) != ("0", "0") if tests else p[1] == "main")]
    if len(fits) == 1:
        return fits[0]
    one, many = ("package with tests", "packages with tests") if tests else ("main package", "main packages")
    if not fits:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{root} has no {one}" + ("" if tests else
                         ": a library is debugged through its tests (mode 'test') or a program that uses it"))
    raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{root} has {len(fits)} {many} (one is debugged at a time): give "
                     f"one's directory in path: {', '.join(os.path.relpath(f, root) for f in fits)}")


def _go_list(command: list[str], root: str) -> list[str]:
    try:
        listed = subprocess.run(command, cwd=root, capture_output=True, text=True, errors="replace",
                                timeout=LIST_TIMEOUT, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DebugError(ErrorCode.BUILD_FAILED, f"{' '.join(command[:3])} in {root} did not answer: {exc}") from exc
    if listed.returncode != 0:
        raise DebugError(ErrorCode.BUILD_FAILED, f"{' '.join(command[:3])} in {root} failed:\n{useful(listed.stderr)}")
    return [line for line in listed.stdout.splitlines() if line.strip()]
