"""The debugger's own commands that `evaluate` passes on (gdb's `>print x`), limited to those that only read.

A command that runs, stops or restarts the program, moves breakpoints or reaches outside the debugger
would change the session behind dap2mcp's back (gdb's `>run` restarted the program, and the next
`continue` waited for a stop that had already come): those are refused, naming the tool that does it.
"""

from __future__ import annotations

import re

from ...adapters.base import AdapterProfile
from ...errors import DebugError, ErrorCode

_WORD = re.compile(r"\s*([^\s/]*)")


def console_command(profile: AdapterProfile, expression: str) -> str | None:
    """The debugger command in `expression`, if it is one (None for an expression); refused unless it only reads."""
    prefix = profile.console.console_prefix
    if prefix is None or not expression.lstrip().startswith(prefix):
        return None
    command = expression.lstrip()[len(prefix):].strip()
    word = (_WORD.match(command) or _WORD.match("")).group(1)  # `print/x v`: the word is `print`
    if word in profile.console.console_reads or any(" " in read and f"{command} ".startswith(f"{read} ")
                                            for read in profile.console.console_reads):
        if profile.console.console_writes is not None and (write := profile.console.console_writes.search(command[len(word):])):
            raise DebugError(ErrorCode.NOT_SUPPORTED, f"'{prefix}{command}' writes to the program ({write.group(0)!r}) "
                             "behind dap2mcp's back: change a variable with set-variable, which the next answers "
                             "show as a change; debugger commands that only read are passed on")
        return command
    instead = next((tool for words, tool in profile.console.console_instead if word in words), None)
    said = f"use {instead}" if instead else f"commands that only read are passed on: {', '.join(sorted(profile.console.console_reads))}"
    raise DebugError(ErrorCode.NOT_SUPPORTED, f"'{prefix}{word}' is not passed to {profile.name}: it would change the "
                     f"session behind dap2mcp's back or reach outside the debugger; {said}")
