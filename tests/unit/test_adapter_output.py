"""Which output is the program's and which the adapter's own, as each adapter's profile says.

Delve's `error layer=dap` lines could not be provoked on demand through the tools (a request Delve
cannot decode ends its connection), so its log format is checked here on text shaped as Delve writes it.
"""

from __future__ import annotations

from dap2mcp.adapters.base import OWN_PRINT
from dap2mcp.adapters.go import DELVE
from dap2mcp.adapters.native import GDB, LLDB
from dap2mcp.adapters.python import DEBUGPY
from dap2mcp.session.output.buffer import OwnPrintHolder


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


def test_a_print_of_dap2mcps_split_across_output_events_is_not_the_programs() -> None:
    """lldb-dap forwards lldb's stdout in chunks: a memory read's line of 2,000 hex digits came in two events, and
    the second half (no longer starting with the mark) landed in the program's output (a CI run of
    test_native_output.py). Cut anywhere, even inside the mark, it stays out, and the program's lines around it
    stay in."""
    line = f"{OWN_PRINT}140737488348412 " + "0a" * 1024 + "\n"
    for cut in (3, len(OWN_PRINT) + 5, 1024, len(line) - 1):
        holder = OwnPrintHolder(OWN_PRINT)
        pieces = ["10 2 20\n" + line[:cut], line[cut:] + "done\n"]
        program = "".join(LLDB.own_lines(holder.join("stdout", piece))[0] for piece in pieces)
        assert program == "10 2 20\ndone\n", cut
    holder = OwnPrintHolder(OWN_PRINT)
    assert holder.join("stdout", "progress: 50%") == "progress: 50%"  # the program's unfinished line is not held
