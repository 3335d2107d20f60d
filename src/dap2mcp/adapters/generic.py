"""Any debug adapter, given by its command (or the address it listens at) and the `launch` or `attach` arguments
it takes: the all-defaults profile, which knows nothing of the adapter but what DAP says, and so asks nothing of
it that DAP does not.

dap2mcp sends the given arguments as they are, with `${...}` placeholders filled from `debug`'s own arguments
(`fill`), and does the rest itself: breakpoints, exception filters, `configurationDone`, and `stopOnEntry` where
the launch arguments do not say it already.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..errors import DebugError, ErrorCode
from .base import AdapterProfile, AdapterStart, Target, Tool, parse_address

Arguments = dict[str, Any]


class AdapterSpec(BaseModel):
    """An adapter dap2mcp has no profile for: how to reach it and what to send it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    command: Annotated[list[str] | None, Field(min_length=1, description=(
        "The adapter's command line; it speaks DAP on its stdin and stdout."))] = None
    address: Annotated[str | None, Field(max_length=300, description=(
        "host:port of an adapter already listening, instead of a command."))] = None
    launch: Annotated[Arguments | None, Field(description=(
        "The `launch` request's arguments, with ${path}, ${args}, ${cwd}, ${env} filled in from debug's."))] = None
    attach: Annotated[Arguments | None, Field(description=(
        "The `attach` request's arguments (modes attach and connect): ${processId}, ${host}, ${port} too."))] = None

    @model_validator(mode="after")
    def _one_of_each(self) -> AdapterSpec:
        if (self.command is None) == (self.address is None):
            raise ValueError("an adapter given by its command takes `command` (its argv) or `address` (host:port "
                             "where it listens), one of them")
        if (self.launch is None) == (self.attach is None):
            raise ValueError("an adapter given by its command takes `launch` or `attach` (the request's arguments), "
                             "one of them")
        return self

    @property
    def request(self) -> str:
        return "launch" if self.launch is not None else "attach"


_PLACEHOLDER = re.compile(r"\$\{(path|args|cwd|env|processId|host|port|core)\}")


def fill(template: Any, target: Target) -> Any:
    """`template` with each placeholder replaced by what `debug` was given. A string that is a placeholder alone
    takes the value as it is (`${args}` a list, `${env}` an object, `${processId}` a number); within a longer
    string it is spelled out (`${args}` as a shell would quote it)."""
    values: dict[str, Any] = {
        "path": target.program or (target.absolute(target.path) if target.path else None),
        "args": list(target.args), "cwd": target.cwd or os.getcwd(), "env": dict(target.env),
        "processId": target.process_id,
        "host": target.address[0] if target.address else None, "port": target.address[1] if target.address else None,
        "core": target.core,
    }
    if isinstance(template, dict):
        return {key: fill(value, target) for key, value in template.items()}
    if isinstance(template, list):
        return [item for value in template for item in
                (values["args"] if value == "${args}" else [fill(value, target)])]
    if not isinstance(template, str):
        return template
    if (whole := _PLACEHOLDER.fullmatch(template)) is not None:
        return values[whole[1]]

    def spelled(match: re.Match[str]) -> str:
        value = values[match[1]]
        return shlex.join(value) if isinstance(value, list) else "" if value is None else str(value)
    return _PLACEHOLDER.sub(spelled, template)


@dataclass(frozen=True)
class GenericProfile(AdapterProfile):
    """The all-defaults profile, for the adapter `spec` names."""

    spec: AdapterSpec | None = None

    @classmethod
    def given(cls, spec: AdapterSpec, name: str = "custom", extensions: tuple[str, ...] = ()) -> GenericProfile:
        command = spec.command[0] if spec.command else None
        tools = (Tool("adapter", (command,), note=f"install {command}, or correct the adapter's command"),) \
            if command else ()
        return cls(name=name, adapter_id=name, language="any", extensions=extensions, tools=tools, spec=spec)

    def prepare(self, target: Target) -> tuple[Target, str | None]:
        spec = self._spec
        if target.mode == "test":
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"the {self.name} adapter runs no tests of its own: give a "
                             "`launch` that runs the test runner, with mode 'source'")
        wants = "attach" if target.mode in ("attach", "connect") else "launch"
        if spec.request != wants:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"the {self.name} adapter is given `{spec.request}` "
                             f"arguments, and mode '{target.mode}' {wants}es: give `{wants}` arguments, or mode "
                             f"{'attach or connect' if spec.request == 'attach' else 'source or binary'}")
        return super().prepare(target)

    def plan(self, target: Target) -> AdapterStart:
        spec = self._spec
        arguments = fill(spec.launch if spec.launch is not None else spec.attach, target)
        if target.stop_on_entry and spec.request == "launch":
            arguments.setdefault("stopOnEntry", True)
        if spec.address is not None:
            return AdapterStart([], spec.request, arguments, address=parse_address(spec.address))
        assert spec.command is not None
        return AdapterStart(list(spec.command), spec.request, arguments, cwd=target.cwd)

    @property
    def _spec(self) -> AdapterSpec:
        assert self.spec is not None, "a generic profile is made for an adapter's spec (`given`)"
        return self.spec
