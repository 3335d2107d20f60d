"""Debug adapter profiles: how to start each adapter and talk it into debugging a target."""

from __future__ import annotations

import mmap
import os

from ..errors import DebugError, ErrorCode
from . import cargo, go_build, java_build, node_tests
from .base import AdapterProfile, AdapterStart, Target, Tool
from .configured import config_path, configured
from .generic import AdapterSpec, GenericProfile
from .go import DELVE
from .java import JAVA_PROFILE
from .native import GDB, LLDB, NATIVE_EXTENSIONS, directory_refused
from .node import NODE_PROFILE
from .python import DEBUGPY
from .ruby import RUBY_PROFILE

PROFILES: dict[str, AdapterProfile] = {p.name: p for p in (DEBUGPY, LLDB, GDB, DELVE, NODE_PROFILE, JAVA_PROFILE,
                                                              RUBY_PROFILE)}
"""By the names `debug`'s `adapter` argument takes. Where two profiles share an extension, the first wins."""
UNPROFILED: tuple[tuple[str, str, tuple[Tool, ...]], ...] = ()
"""Adapters `doctor` checks whose profile is still to come."""

GO_BUILD_INFO = b"\xff Go buildinf:"


def select(target: Target, adapter: str | AdapterSpec | None = None) -> AdapterProfile:
    """The adapter given by the user (by name, or by its command), else the one whose language the program is
    written in: the user's own adapters (`configured`) first, for the extensions they name."""
    profile = _chosen(target, adapter)
    if target.mode == "core" and not profile.launch.reads_cores:
        readers = ", ".join(name for name, p in PROFILES.items() if p.launch.reads_cores)
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"the {profile.name} adapter reads no core files; {readers} do "
                         "(C, C++, Rust and Go programs)")
    return profile


def _chosen(target: Target, adapter: str | AdapterSpec | None) -> AdapterProfile:
    if isinstance(adapter, AdapterSpec):
        return GenericProfile.given(adapter)
    own = configured()
    if clash := own.keys() & PROFILES.keys():
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{config_path()}: adapter '{sorted(clash)[0]}' is a built-in "
                         "adapter's name; give yours another")
    if adapter:
        if adapter in own:
            return own[adapter].for_mode(target.mode)
        if adapter not in PROFILES:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"unknown adapter '{adapter}'; available: "
                             f"{', '.join([*PROFILES, *own])}, or an adapter by its command")
        return _fits(PROFILES[adapter], target)
    ext = os.path.splitext(target.path or "")[1].lower()
    if ext and target.mode != "test" and (mine := next((c for c in own.values() if ext in c.extensions), None)):
        return mine.for_mode(target.mode)
    if target.module or (target.mode == "connect" and not target.path):
        return DEBUGPY
    if target.mode == "attach":
        return _for_process(target.process_id or 0)
    if target.mode == "test":
        return _for_tests(target)
    if target.main_class and not target.path:
        return JAVA_PROFILE
    path = target.absolute(target.path or "")
    if os.path.isdir(path):
        if go_build.is_go_project(path):
            return DELVE
        if cargo.is_project(path):
            return LLDB
        if java_build.is_maven_project(path):
            return JAVA_PROFILE
        raise DebugError(ErrorCode.INVALID_ARGUMENT, directory_refused(target.path or ".", path))
    executable = _is_elf(path)
    if target.mode == "core" and not executable:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"mode 'core' takes as path the executable the core is of; "
                         f"'{target.path}' is not one")
    if executable:
        if target.mode == "source":
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"'{target.path}' is an executable, not source: "
                             "use mode 'binary'")
        return DELVE if _is_go(path) else LLDB
    if target.mode == "binary" and ext in NATIVE_EXTENSIONS + DELVE.extensions:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"'{target.path}' is source code: use mode 'source' to "
                         "build and debug it, or give the executable")
    for profile in PROFILES.values():
        if ext in profile.extensions:
            return profile
    raise DebugError(
        ErrorCode.ADAPTER_NOT_FOUND,
        f"no debug adapter for '{target.path}' (extension '{ext or 'none'}'); "
        f"pass adapter= one of {', '.join(PROFILES)}, an adapter by its command, or one named in {config_path()}",
    )


def _for_tests(target: Target) -> AdapterProfile:
    """Mode `test`: a Go package's directory (or a module's or a workspace's, with one package of tests) goes to
    Delve, a Cargo project's to lldb, a Maven project's to java, a Python test file, node id or directory to debugpy (pytest finds the tests
    in it), a JavaScript or TypeScript test file or project to js-debug (node_tests.py)."""
    path = target.absolute(target.file or ".")
    if os.path.isdir(path) and (any(name.endswith("_test.go") for name in os.listdir(path))
                                 or go_build.is_module_or_workspace(path)):
        return DELVE
    if cargo.is_project(path):
        return LLDB
    if java_build.is_maven_project(path):
        return JAVA_PROFILE
    if node_tests.runs_tests(path):
        return NODE_PROFILE
    if os.path.isdir(path) or path.endswith(".py"):
        return DEBUGPY
    raise DebugError(ErrorCode.INVALID_ARGUMENT, f"mode 'test' takes a Python test file, a pytest node id "
                     f"(tests/test_x.py::test_y), a directory of Python tests, a Go package's, a Cargo project's or a Maven "
                     f"project's directory, "
                     f"a JavaScript or TypeScript test file, or a directory of them or of a project whose package.json names its runner; "
                     f"'{target.path}' is none of these")


def _fits(profile: AdapterProfile, target: Target) -> AdapterProfile:
    """A named adapter, unless the file is source of a language it does not debug: that would fail later
    with the adapter's own words (gdb: "not in executable format") instead of saying what to pass."""
    ext = os.path.splitext(target.path or "")[1].lower()
    takers = [name for name, other in PROFILES.items() if ext in other.extensions]
    if target.mode in ("source", "binary") and takers and profile.name not in takers:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"the {profile.name} adapter does not debug '{ext}' files; "
                         f"{' or '.join(takers)} does: pass adapter '{takers[0]}', or omit adapter")
    return profile


def _for_process(pid: int) -> AdapterProfile:
    """Python interpreters go to debugpy, Node to js-debug, a JVM to java, Go programs to Delve, anything else native
    to lldb."""
    try:
        exe = os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return LLDB  # a kernel thread or a process we may not look at: lldb says why it cannot attach
    if os.path.basename(exe).startswith(("python", "pypy")):
        return DEBUGPY
    if os.path.basename(exe).startswith("node"):
        return NODE_PROFILE
    if os.path.basename(exe) == "java":
        return JAVA_PROFILE
    return DELVE if _is_go(exe) else LLDB


def _is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == b"\x7fELF"
    except OSError:
        return False


def _is_go(path: str) -> bool:
    """Go linkers write a build-info header into every executable (mapped, not read: they are big)."""
    try:
        with open(path, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return data.find(GO_BUILD_INFO) >= 0
    except (OSError, ValueError):
        return False


__all__ = ["PROFILES", "UNPROFILED", "AdapterProfile", "AdapterSpec", "AdapterStart", "Target", "Tool", "select"]
