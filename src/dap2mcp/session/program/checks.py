"""What a `debug` or `restart` is refused for before the current session is given up: a program that
could not start anyway must not cost the one that runs now. What the machine says of a target is checked here;
what `debug`'s arguments say together, in launch_request.py."""

from __future__ import annotations

import os
from typing import Any

from ... import processes
from ...adapters import AdapterProfile, Target, cores
from ...errors import DebugError, ErrorCode
from ..breakpoints.breakpoint import check_options, resolve_place
from ..breakpoints.specs import BreakpointSpec


def check_start(target: Target, breakpoints: list[BreakpointSpec]) -> None:
    if target.mode == "attach" and (target.process_id is None or not processes.pid_alive(target.process_id)):
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"no running process with id {target.process_id}")
    if target.mode == "attach" and target.process_id in processes.own_family():
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"process {target.process_id} is this debugger or runs it; "
                         "stopping it would stop the debugger too")
    for spec in breakpoints:
        if spec.file:
            resolve_place(spec.file, spec.line, spec.text, target.cwd)
    if target.launched:
        if target.cwd is not None and not os.path.isdir(target.cwd):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cwd '{target.cwd}' is not a directory (any more)")
        if any("\x00" in text for text in (*target.args, *target.env, *target.env.values())):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, "a program argument or environment variable cannot contain "
                             "a NUL character")
        _check_utf8(target)
    if target.core is not None:
        core = os.path.join(target.cwd or os.getcwd(), target.core)
        if not os.path.isfile(core):
            raise DebugError(ErrorCode.FILE_NOT_FOUND, f"core file not found: {target.core}")
        if target.path and os.path.isfile(program := os.path.join(target.cwd or os.getcwd(), target.path)):
            cores.check(program, core)
    if target.mode != "attach" and target.file and not target.module \
            and not os.path.exists(os.path.join(target.cwd or os.getcwd(), target.file)):
        raise DebugError(ErrorCode.FILE_NOT_FOUND, f"{'tests' if target.mode == 'test' else 'program'} not "
                         f"found: {target.file}")


def _check_utf8(target: Target) -> None:
    """DAP's messages are UTF-8 JSON: a name that is not UTF-8 (a directory's, read back with Python's
    surrogate escapes) cannot be sent, and failed the launch with INTERNAL."""
    named = {"the working directory": target.cwd or os.getcwd(), "path": target.path or "",
             "python": target.python or "", "a program argument": "".join(target.args),
             "an environment variable": "".join((*target.env, *target.env.values()))}
    for what, text in named.items():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            shown = text.encode("utf-8", "backslashreplace").decode("utf-8")
            hint = "; give `cwd`" if what == "the working directory" and target.cwd is None else ""
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"{what} is not valid UTF-8 ({shown}), and the debug "
                             f"adapter's protocol carries only UTF-8{hint}") from None


class _Capable(dict[str, Any]):
    """An adapter assumed to have every capability: what is refused even so is wrong whatever adapter runs."""

    def get(self, key: str, default: Any = None) -> Any:
        return True


def check_breakpoints(breakpoints: list[BreakpointSpec], profile: AdapterProfile) -> None:
    """The options of `debug`'s breakpoints that no adapter could take (a hit condition that is no count,
    a condition that is no expression, maxNotifications without logMessage), refused before the session
    is given up. What this adapter lacks is known only once it has started, and refused then."""
    for spec in breakpoints:
        check_options(spec.kind, spec.over(), _Capable(), profile)


def check_path_mappings(target: Target, profile: AdapterProfile) -> None:
    """`pathMappings` is for a program whose files are named by another machine's paths: one attached or
    connected to, or an executable built elsewhere (mode `binary`). A program of mode `source` is built here,
    from the agent's own file, so its paths are local already and a mapping could only mislead the adapter."""
    if not target.path_mappings:
        return
    if target.mode == "source":
        raise DebugError(ErrorCode.INVALID_ARGUMENT, "pathMappings: mode 'source' builds the program here from "
                         "local files, so there is nothing to map; pathMappings is for modes attach and connect "
                         "(and binary, for an executable built elsewhere)")
    for local, _ in target.path_mappings:
        if not os.path.exists(local):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"pathMappings: local path '{local}' does not exist here; "
                             "local is the agent's copy of the program's files")
    profile.path_map_arguments(target)  # NOT_SUPPORTED where the adapter has no mappings


def refuse_on_core(target: Target, what: str) -> None:
    """A core file is a program stopped for good: what would run it, or change it, is refused, saying what reads it."""
    if target.mode == "core":
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"the program is a core file ({os.path.basename(target.core or '')}): "
                         f"nothing runs to {what}; read it with context, evaluate, memory, disassemble and "
                         "snapshot_create, and `stop` closes it")

