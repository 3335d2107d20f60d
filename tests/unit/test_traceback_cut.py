"""The launcher's traceback entries are cut from a Python program's output however the output events split
it (a File line and its source came in two events on a real run); pure, on debugpy's profile data."""

from __future__ import annotations

from dap2mcp.adapters.python import DEBUGPY
from dap2mcp.session.output.buffer import TracebackCutter

VENV = "/home/u/.venv/lib/python3.11/site-packages/debugpy"
PRINTED = (
    "before\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.11/runpy.py", line 198, in _run_module_as_main\n'
    "    return _run_code(code, main_globals, None,\n"
    "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    f'  File "{VENV}/launcher/../../debugpy/__main__.py", line 71, in <module>\n'
    "    cli.main()\n"
    f'  File "{VENV}/_vendored/pydevd/_pydevd_bundle/pydevd_runpy.py", line 118, in _run_code\n'
    "    exec(code, run_globals)\n"
    '  File "/src/app/debugpy/main.py", line 22, in <module>\n'  # the program's own, in a folder named debugpy
    "    main()\n"
    '  File "/src/app/main.py", line 18, in main\n'
    '    return settings["colour"]\n'
    "           ~~~~~~~~^^^^^^^^^^\n"
    "KeyError: 'colour'\n"
    "    indented output of the program's own\n"
)
SHOWN = (
    "before\n"
    "Traceback (most recent call last):\n"
    '  File "/src/app/debugpy/main.py", line 22, in <module>\n'
    "    main()\n"
    '  File "/src/app/main.py", line 18, in main\n'
    '    return settings["colour"]\n'
    "           ~~~~~~~~^^^^^^^^^^\n"
    "KeyError: 'colour'\n"
    "    indented output of the program's own\n"
)


def test_the_launchers_entries_are_cut_in_one_piece():
    assert TracebackCutter(DEBUGPY.output.launcher_frames).cut(PRINTED) == SHOWN


def test_the_launchers_entries_are_cut_wherever_the_output_splits():
    for split in range(len(PRINTED) + 1):
        for second in (split, (split + len(PRINTED)) // 2):
            cutter = TracebackCutter(DEBUGPY.output.launcher_frames)
            pieces = [PRINTED[:split], PRINTED[split:second], PRINTED[second:]] if second > split else \
                [PRINTED[:split], PRINTED[split:]]
            assert "".join(cutter.cut(piece) for piece in pieces) == SHOWN, (split, second)


def test_output_outside_a_traceback_is_never_held_back():
    cutter = TracebackCutter(DEBUGPY.output.launcher_frames)
    assert cutter.cut("Enter a number: ") == "Enter a number: "
    assert cutter.cut(f'  File "{VENV}/__main__.py", line 71, in <module>\n') == \
        f'  File "{VENV}/__main__.py", line 71, in <module>\n'  # not in a traceback: the program's own text
