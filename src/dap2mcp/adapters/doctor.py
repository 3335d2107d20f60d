"""`dap2mcp doctor`: which languages can be debugged here, with what, and how to install what is missing."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import DebugError
from .base import AdapterProfile, Tool
from .configured import Configured, config_path
from .generic import AdapterSpec

Unprofiled = tuple[str, str, Sequence[Tool]]
"""An adapter installed before its profile exists, as `doctor` lists it: name, language, tools (js-debug)."""


@dataclass(frozen=True)
class Finding:
    profile: str
    language: str
    role: str
    command: str
    path: str | None
    version: str | None
    install: str
    problem: str | None = None
    """Why the program found cannot serve here (a Delve too old for this Go): reported as missing."""

    @property
    def ok(self) -> bool:
        return bool(self.path) and not self.problem


def examine(profiles: list[AdapterProfile], unprofiled: Sequence[Unprofiled] = ()) -> list[Finding]:
    adapters: list[Unprofiled] = [(p.name, p.language, p.every_tool) for p in profiles]
    found: list[Finding] = []
    for name, language, tools in [*adapters, *unprofiled]:
        for tool in tools:
            path = tool.find()
            found.append(Finding(name, language, tool.role, tool.label or tool.commands[0], path,
                                 _version(path, tool) if path else None, tool.install,
                                 tool.unfit(path) if path and tool.unfit else None))
    return found


Answers = Callable[[AdapterSpec], str | None]
"""Whether an adapter answers `initialize`: None where it does, else why not (the wire is the caller's)."""


def examine_configured(entries: Callable[[], Mapping[str, Configured]], answers: Answers) -> list[Finding]:
    """The user's own adapters (`adapters.toml`), each asked `initialize` once."""
    try:
        found = entries()
    except DebugError as exc:
        return [Finding("adapters.toml", "yours", "config", str(config_path()), None, None,
                        "correct the file", exc.message)]
    listed: list[Finding] = []
    for name, entry in found.items():
        spec = entry.any.spec
        assert spec is not None
        command = spec.command[0] if spec.command else spec.address or ""
        path = entry.any.tools[0].find() if entry.any.tools else command  # the adapter's command, as `debug` finds it
        kinds = "/".join(entry.extensions) or "any"
        listed.append(Finding(name, kinds, "adapter", command, path, "answers initialize" if path else None,
                              f"install {command}, or correct {config_path()}", answers(spec) if path else None))
    return listed


def _version(path: str, tool: Tool) -> str | None:
    argv = [path if word == "{path}" else word for word in tool.version_command] or \
        ([path, *tool.version_argv] if tool.version_argv else [])
    if not argv:
        return None
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=20,
                              stdin=subprocess.DEVNULL, errors="replace")
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = [ln.strip() for ln in (done.stdout + done.stderr).splitlines() if ln.strip()]
    versioned = [ln.lstrip("`|-+ └├─") for ln in lines if any(ch.isdigit() for ch in ln)]
    return (versioned or lines or [None])[0]


def render(findings: list[Finding]) -> str:
    lines = []
    for f in findings:
        state = f"ok       {f.path}" + (f"  ({f.version})" if f.version else "") if f.ok else \
            f"MISSING  {f.path}: {f.problem}; install another with: {f.install}" if f.path else \
            f"MISSING  install with: {f.install}"
        lines.append(f"{f.language:<11} {f.profile:<8} {f.role:<9} {f.command:<16} {state}")
    missing = [f for f in findings if not f.ok]
    lines.append("")
    lines.append("everything is installed" if not missing else
                 f"{len(missing)} missing; adapters whose tools are missing answer `debug` with ADAPTER_NOT_FOUND")
    return "\n".join(lines)


def run(profiles: list[AdapterProfile], unprofiled: Sequence[Unprofiled] = (),
        configured: Sequence[Finding] = ()) -> int:
    findings = [*examine(profiles, unprofiled), *configured]
    print(render(findings), file=sys.stdout)
    return 0 if all(f.ok for f in findings) else 1
