"""A breakpoint as a debug adapter is to be given it: one entry of `setBreakpoints`, `setFunctionBreakpoints` or
`setDataBreakpoints`, in the words of the profile's adapter. What the agent gave stays on the `Breakpoint`; only
what goes on the wire is made here."""

from __future__ import annotations

from typing import Any

from ...adapters import AdapterProfile
from ...adapters.base import FunctionPlace
from .breakpoint import HIT_CONDITION, Breakpoint, hit_condition_sent


def dap_form(bp: Breakpoint, profile: AdapterProfile, *, place: FunctionPlace | None = None,
             tag: str = "") -> dict[str, Any]:
    """`bp` as DAP's SourceBreakpoint (a line, or a function the profile puts on a line of its file), its
    FunctionBreakpoint or its DataBreakpoint. `place`: where the profile puts a function breakpoint
    (`function_place`), None for the name as given; `tag`: what goes before a tracepoint's message, by which
    its output is told apart from the program's."""
    form: dict[str, Any]
    if bp.kind == "watch":
        form = {"dataId": bp.data_id, "accessType": bp.access}
    elif bp.kind == "function" and not (place and place.line):
        form = {"name": place.name if place else bp.function}
    else:
        form = {"line": place.line if place and place.line else bp.line}
    form.update(conditions_sent(bp, profile, place.first_pass if place else None))
    if message := bp.options.logMessage:
        if profile.breakpoints.log_percent_formats and "{" in message:
            message = message.replace("%", "%%")  # the adapter %-formats messages with expressions
        form["logMessage"] = tag + message + message_end(profile) + "\n" * profile.breakpoints.log_as_written
    return form


def message_end(profile: AdapterProfile) -> str:
    """What a tracepoint's message ends with, before its line end: a mark where the program itself prints it
    (`logs_in_program_output`), so that a message of several lines is known whole."""
    return profile.breakpoints.log_tag if profile.breakpoints.logs_in_program_output else ""


def conditions_sent(bp: Breakpoint, profile: AdapterProfile, first_pass: str | None = None) -> dict[str, str]:
    """The breakpoint's `condition` and `hitCondition` as the adapter is to be given them: the hits counted in
    the condition where the profile says so (`counted_hits`), a line that a comprehension's frame runs too
    kept to the frame around it (`own_frame`), a function's first line to its first pass (`first_pass`). Alone,
    the condition goes as given; put beside those, it closes on a line of its own, so that a `#` comment at its
    end (which Python takes in a condition) does not comment the closing parenthesis out."""
    condition, hit_condition = bp.options.condition, bp.options.hitCondition
    parts = [f"({condition}\n)"] if condition else []
    if first_pass:
        parts.insert(0, first_pass)
    sent: dict[str, str] = {}
    if hit_condition and profile.breakpoints.counted_hits:
        hit = HIT_CONDITION.match(hit_condition)
        assert hit is not None, "checked by check_options"
        count, operator, number = profile.breakpoints.counted_hits.format(key=bp.id), hit.group(1) or "==", hit.group(2)
        parts.append(f"{count} % {number} == 0" if operator == "%" else f"{count} {operator} {number}")
    elif hit_condition:
        sent["hitCondition"] = hit_condition_sent(hit_condition, profile)
    guard = profile.stops.own_frame
    if bp.kind == "line" and guard and bp.file and bp.line in guard.lines(bp.file):
        parts.insert(0, guard.test)
    if parts:
        sent["condition"] = " and ".join(parts) if len(parts) > 1 or not condition else condition
    return sent
