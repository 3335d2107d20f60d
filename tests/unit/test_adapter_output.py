"""Which output is the program's and which the adapter's own, as each adapter's profile says.

Delve's `error layer=dap` lines could not be provoked on demand through the tools (a request Delve
cannot decode ends its connection), so its log format is checked here on text shaped as Delve writes it.
"""

from __future__ import annotations

from dap2mcp.adapters.go import DELVE
from dap2mcp.adapters.native import GDB, LLDB
from dap2mcp.adapters.python import DEBUGPY


def test_delves_log_lines_are_split_from_its_debuggees_output() -> None:
    text = ("total 3\n2024-05-01T10:00:00Z error layer=dap recovered panic: boom\nlayer=dap is fine here\n"
            "2024-05-01T10:00:00.123+02:00 warning layer=debugger cannot read\n")
    program, own = DELVE.own_lines(text)
    assert program == "total 3\nlayer=dap is fine here\n"
    assert own == ("2024-05-01T10:00:00Z error layer=dap recovered panic: boom\n"
                   "2024-05-01T10:00:00.123+02:00 warning layer=debugger cannot read\n")
    assert DELVE.own_lines("plain output\n") == ("plain output\n", "")


def test_categories_that_carry_the_programs_output() -> None:
    assert LLDB.programs("stdout") and not LLDB.programs("stderr") and not LLDB.programs("console")
    assert not GDB.programs("stdout") and GDB.programs("stdout", connected=True)  # over connect gdb's mixes both
    assert DELVE.programs("stderr") and not DELVE.programs("console")
    assert DEBUGPY.programs("stdout") and DEBUGPY.programs("stderr")  # the program's own streams
    assert not DEBUGPY.programs("console") and not DEBUGPY.programs("important")  # debugpy's and pydevd's words
