"""What `debug` is asked to start, as one typed request: its fields are the tool's arguments (their types and
descriptions are the tool's input schema, server/binding.py spreads them into it), what they say together is
checked here, once, and the request becomes the adapter's `Target`.

What the machine says of a target (the process is there, the file exists, the directory is one) is checked apart,
in checks.py, because a `restart` asks it again of a target no request made.
"""

from __future__ import annotations

import dataclasses
import shlex
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...adapters import Target
from ...adapters.base import parse_address
from ...adapters.generic import AdapterSpec
from ...errors import DebugError, ErrorCode
from ..breakpoints.specs import MAX_PATH_MAPPINGS, PATH_CHARS, TEXT_CHARS, BreakpointSpec, PathMapping

Mode = Literal["source", "binary", "test", "attach", "connect", "core"]
MAX_CLASSPATH = 1000


class LaunchRequest(BaseModel):
    """The arguments of `debug` but its wait (`timeout`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: Annotated[Mode, Field(description="See the description.")]
    path: Annotated[str | None, Field(max_length=PATH_CHARS, description=(
        "Script, source, package, project or executable; mode 'test': tests, a file or node id."))] = None
    test: Annotated[str | None, Field(max_length=TEXT_CHARS, description=(
        "Mode 'test': the runner's name filter (pytest -k, go test -run, --grep, -t, -Dtest)."))] = None
    bin: Annotated[str | None, Field(max_length=TEXT_CHARS, description=(
        "A Cargo project's binary to run (cargo --bin)."))] = None
    module: Annotated[str | None, Field(max_length=PATH_CHARS, description="A Python module to run as `python -m`.")] = None
    mainClass: Annotated[str | None, Field(max_length=TEXT_CHARS, description=(
        "Java: the class whose main runs."))] = None
    classpath: Annotated[list[str] | None, Field(max_length=MAX_CLASSPATH, description=(
        "Java: mainClass's class path."))] = None
    processId: Annotated[int | None, Field(gt=0, description="Process to attach to (mode 'attach').")] = None
    address: Annotated[str | None, Field(max_length=PATH_CHARS, description=(
        "Mode 'connect': host:port (debugpy --listen, dlv dap, node --inspect)."))] = None
    core: Annotated[str | None, Field(max_length=PATH_CHARS, description=(
        "Mode 'core': a core file of the executable `path`."))] = None
    args: Annotated[list[str] | None, Field(description=(
        "The program's arguments (mode 'test': the runner's).") )] = None
    cwd: Annotated[str | None, Field(max_length=PATH_CHARS, description="Working directory.")] = None
    env: Annotated[dict[str, str] | None, Field(description="Extra environment variables.")] = None
    breakpoints: Annotated[list[BreakpointSpec] | None, Field(description=(
        "Initial breakpoints, as `breakpoint` takes them."))] = None
    stopOnEntry: Annotated[bool, Field(description="Stop at the first line (or `main`).")] = False
    python: Annotated[str | None, Field(max_length=PATH_CHARS, description=(
        "Python interpreter (default: the project's venv)."))] = None
    adapter: Annotated[Annotated[str, Field(min_length=1, max_length=100)] | AdapterSpec | None, Field(description=(
        "By language, else a name (debugpy, lldb, gdb, delve, node, java, ruby, of adapters.toml) or any DAP "
        "adapter: {command|address, launch|attach}."))] = None
    tcpNoDelay: Annotated[bool, Field(description="Python: TCP_NODELAY.")] = True
    justMyCode: Annotated[bool, Field(description=(
        "Python: steps pass over library code."))] = True
    pathMappings: Annotated[list[PathMapping] | None, Field(max_length=MAX_PATH_MAPPINGS, description=(
        "A program elsewhere: [{local, remote}] directories."))] = None
    childProcesses: Annotated[bool, Field(description=(
        "Python: child processes are sessions too."))] = True
    record: Annotated[bool, Field(description="Record from the first stop, to go back (see `record`).")] = False

    def target(self) -> Target:
        """The adapter's `Target` for this request; INVALID_ARGUMENT where its arguments do not go together."""
        mode = self.mode
        if self.test is not None and mode != "test":
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "test is for mode 'test' (a name filter for the tests run)")
        if self.core is not None and mode != "core":
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "core is for mode 'core' (a core file of `path`)")
        if self.bin is not None and mode != "source":
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "bin is for mode 'source' (a Cargo project's binary)")
        if (self.mainClass is not None or self.classpath is not None) and mode not in ("source", "binary"):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "mainClass and classpath are for modes 'source' and 'binary' "
                             "(a Java program's main class and class path)")
        if self.mainClass is not None and not self.mainClass.strip():
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "mainClass is empty: give a class name (com.acme.App)")
        java = {"main_class": self.mainClass, "classpath": tuple(self.classpath or ())}
        launched = {"args": tuple(self.args or ()), "cwd": self.cwd, "env": dict(self.env or {}),
                    "just_my_code": self.justMyCode}
        started = {**launched, "stop_on_entry": self.stopOnEntry, "python": self.python,
                   "tcp_nodelay": self.tcpNoDelay, "children": self.childProcesses}
        if mode == "test":
            if self.module:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, "mode 'test' runs the test runner itself: give path "
                                 "(tests, a test file or node id, or a package directory), not module")
            target = Target(mode="test", path=self.path or ".", test=self.test, **started)
        elif mode == "attach":
            if self.processId is None:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, "mode 'attach' needs processId")
            target = Target(mode="attach", process_id=self.processId, path=self.path, just_my_code=self.justMyCode)
        elif mode == "core":
            if not self.core or not self.path:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, "mode 'core' needs core (the core file) and path (the "
                                 "executable it is of)")
            if self.breakpoints:
                raise DebugError(ErrorCode.NOT_SUPPORTED, "a core file does not run: breakpoints have nothing to "
                                 "stop; its state at the end is the stop")
            target = Target(mode="core", path=self.path, core=self.core, cwd=self.cwd)
        elif mode == "connect":
            if not self.address:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, "mode 'connect' needs address (host:port)")
            target = Target(mode="connect", address=parse_address(self.address), path=self.path, **launched)
        else:
            path, module, args = split_module(self.path, self.module, self.args)
            if not path and not module and not (mode == "binary" and self.mainClass):
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"mode '{mode}' needs path (or module; for Java, "
                                 "mainClass)")
            target = Target(mode=mode, path=path, module=module, bin=self.bin,
                            **{**started, **java, "args": tuple(args or ())})
        if self.record:
            if mode in ("core", "attach", "connect"):
                raise DebugError(ErrorCode.INVALID_ARGUMENT, "record is for a program dap2mcp starts (modes 'source', "
                                 "'binary', 'test'); at a stop of any other, `record {on: true}`")
            target = dataclasses.replace(target, record=True)
        if self.pathMappings:
            target = target.mapped([(m.local, m.remote) for m in self.pathMappings])
        return target


def split_module(path: str | None, module: str | None,
                 args: list[str] | None) -> tuple[str | None, str | None, list[str] | None]:
    """`path: "-m pytest tests/x.py -x"` as `python -m` reads it: module `pytest`, the rest before `args`.
    A module given with a path, or a module name with arguments in it, is refused: one would be dropped,
    or taken for a module name that cannot exist."""
    if path and module:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "give path or module, not both (module runs like `python -m`; "
                         "its arguments go in args)")
    if path and path.lstrip().startswith("-m"):
        try:
            words = shlex.split(path)
        except ValueError as exc:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot read path {path!r} as `-m module args`: {exc}") from None
        if len(words) < 2 or words[0] != "-m":
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"path {path!r} names no module: give module "
                             "(e.g. 'pytest') and its arguments in args")
        return None, words[1], [*words[2:], *(args or [])]
    if module and (module.split() != [module] or module.startswith("-")):
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"module {module!r} is not a module name: give the name alone "
                         "(e.g. 'pytest') and its arguments in args")
    return path, module, args
