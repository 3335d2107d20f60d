"""Imported in a test run's program (`debug` mode `test`) at an exception stop, to tell whether the exception
fails the test: debugpy's `userUnhandled` stops where an exception leaves the project's code for pytest's,
which is where a test fails, but also where it does not.

- pytest's own outcomes pass through the test on their way to pytest: `pytest.skip`, `pytest.xfail`,
  `pytest.exit`, `pytest.importorskip` (but not `pytest.fail`).
- A test marked `xfail` is expected to raise.
- pydevd reads a frame's return as the exception leaving it when the frame returns from the line that
  raised (it cannot tell the two apart: both come with no value): a `with pytest.raises(...)` that caught the
  exception on the test's last line. The frame is then at a return instruction, not at the one that raised.

It reads pydevd's wait for the stop (`do_wait_suspend`, debugpy 1.8) to find the frame and the exception.
"""

from __future__ import annotations

import dis
import sys
from typing import Any

RETURNS = {dis.opmap[name] for name in ("RETURN_VALUE", "RETURN_CONST") if name in dis.opmap}


def failed() -> bool:
    frames = []
    frame = sys._getframe(1)
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    wait = next((f for f in frames if f.f_code.co_name == "do_wait_suspend" and "pydevd" in f.f_code.co_filename), None)
    if wait is None or not isinstance(wait.f_locals.get("arg"), tuple):
        return True  # not a stop this module knows how to read: stop, rather than run past a failure
    stopped, exception = wait.f_locals.get("frame"), wait.f_locals["arg"][1]
    if stopped is not None and stopped.f_code.co_code[stopped.f_lasti] in RETURNS:
        return False
    if _outcome(exception):
        return False
    item = next((f.f_locals["pyfuncitem"] for f in frames if f.f_code.co_name == "pytest_pyfunc_call"
                 and "pyfuncitem" in f.f_locals), None)
    return not (item is not None and _expected(item, exception))


def _outcome(exception: BaseException) -> bool:
    try:
        from _pytest.outcomes import Exit, Skipped, XFailed
    except ImportError:
        return False
    return isinstance(exception, (Exit, Skipped, XFailed))


def _expected(item: Any, exception: BaseException) -> bool:
    """The test is marked `xfail` for this exception (and pytest does not run it as a plain test)."""
    try:
        from _pytest.skipping import evaluate_xfail_marks
        if item.config.option.runxfail:
            return False
        xfail = evaluate_xfail_marks(item)
    except Exception:
        return False
    return xfail is not None and (xfail.raises is None or isinstance(exception, xfail.raises))
