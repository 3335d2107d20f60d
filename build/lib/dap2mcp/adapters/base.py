"""What the session needs to know about a debug adapter, as data plus a few hooks."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Mode = Literal["source", "binary", "attach"]


@dataclass(frozen=True)
class Target:
    """What the user asked to debug, independent of any adapter."""

    mode: Mode
    path: str | None = None
    module: str | None = None
    process_id: int | None = None
    args: tuple[str, ...] = ()
    cwd: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    stop_on_entry: bool = False
    python: str | None = None
    tcp_nodelay: bool = True

    def with_args(self, args: list[str] | None) -> Target:
        if args is None:
            return self
        return Target(**{**self.__dict__, "args": tuple(args)})


@dataclass(frozen=True)
class AdapterStart:
    """How to start the adapter process and what to send it to begin debugging."""

    argv: list[str]
    request: Literal["launch", "attach"]
    arguments: dict[str, Any]
    env: dict[str, str] | None = None


@dataclass(frozen=True)
class AdapterProfile:
    name: str
    adapter_id: str
    language: str
    extensions: tuple[str, ...]
    start_failure_markers: tuple[str, ...] = ()
    """Output texts by which an adapter says it failed to start, when it never answers instead."""
    hidden_variables: frozenset[str] = frozenset()
    """Children the adapter adds for display (groupings, computed lengths) that are not program state."""
    capture_helper: str | None = None
    """A module in this package that the debuggee can run (via `evaluate`) to expand variables in one reply."""
    cut_markers: frozenset[str] = frozenset()
    """Names of the child an adapter appends where it stopped listing a container's items."""
    exception_category: str | None = None
    """The root of the adapter's exception paths (`exceptionOptions`), where it takes exception types."""
    exception_modes: tuple[tuple[str, str], ...] = ()
    """Exception filter id → DAP break mode, to express a filter as exceptionOptions."""
    log_percent_formats: bool = False
    """The adapter builds a tracepoint's message with `%` formatting, so a literal `%` must be doubled."""
    conditions_combine: bool = True
    """Whether a condition and a hit condition on one breakpoint must both hold (as DAP means)."""

    def helper_source(self) -> str | None:
        return (Path(__file__).parent / self.capture_helper).read_text() if self.capture_helper else None

    def plan(self, target: Target) -> AdapterStart:  # pragma: no cover - each profile overrides
        raise NotImplementedError

    def preflight(self, target: Target) -> str | None:
        """Blocking checks that turn a doomed start into a clear error before anything is spawned;
        returns what runs the program (e.g. "Python 3.11.7") where it can tell."""
