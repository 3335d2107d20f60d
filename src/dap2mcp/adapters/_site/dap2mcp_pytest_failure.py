"""Imported in a test run's program (`debug` mode `test`) at an exception stop, to tell whether the exception
fails the test: debugpy's `userUnhandled` stops where an exception leaves the project's code for pytest's,
which is where a test fails, but also where it does not.

- pytest's own outcomes pass through the test on their way to pytest: `pytest.skip`, `pytest.xfail`,
  `pytest.exit`, `pytest.importorskip` (but not `pytest.fail`).
- A test marked `xfail` is expected to raise.
- pydevd reads a frame's return as the exception leaving it when the frame returns from the line that
  raised (it cannot tell the two apart: both come with no value): a `with pytest.raises(...)` that caught the
  exception on the test's last line. The frame is then at a return instruction, not at the one that raised.
- Library code that called the project's code catches what it raised: `inspect.signature` the AttributeError
  of a `__signature__` property, pytest's own probes (`getattr(module, "__test__", default)`) a PEP 562 module
  `__getattr__`'s, at collection as while a test runs. Each caller between the stop and the runner's call of
  the test (or fixture, or setup) is asked whether the `except` clause around its call matches the exception
  (Python 3.11's exception tables); a `with` or `finally` there passes it on. An exception that reaches the
  runner fails the test, or the collection of its module.

It reads pydevd's wait for the stop (`do_wait_suspend`, debugpy 1.8) to find the frame and the exception.
"""

from __future__ import annotations

import builtins
import dis
import functools
import sys
from typing import Any

RETURNS = {dis.opmap[name] for name in ("RETURN_VALUE", "RETURN_CONST") if name in dis.opmap}

RUNNER_CALLS = frozenset({
    "pytest_pyfunc_call",  # pytest calls a test function
    "call_fixture_func",  # a fixture
    "_call_with_optional_argument",  # setup_module, setup_function and their teardowns
    "importtestmodule",  # a test module's import: an error there is a collection error
    "_callTestMethod", "_callSetUp", "_callTearDown", "_callCleanup",  # unittest's TestCase
})
"""Where the test runner calls the project: an exception that reaches one of these fails a test."""


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
    if stopped is not None and (_asked_for_a_default(stopped, exception) or _caught_on_the_way(stopped, exception)):
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


DIRECT_LOOKUPS = frozenset({"LOAD_ATTR", "LOAD_METHOD", "IMPORT_FROM", "IMPORT_NAME"})


def _asked_for_a_default(stopped: Any, exception: BaseException) -> bool:
    """An AttributeError leaving a `__getattr__` is how it says "no such attribute": where the caller did not look
    the attribute up itself (`x.name`, `from x import name`), a function or statement of Python's own did
    (`getattr(x, name, default)`, `hasattr`, `from x import *` asking for `__all__`), which takes it for the
    default. Should it escape all the same, it stops again where it leaves the test."""
    caller = stopped.f_back
    if not isinstance(exception, AttributeError) or stopped.f_code.co_name != "__getattr__" or caller is None:
        return False
    instructions, at = _instructions(caller.f_code)
    index = at.get(caller.f_lasti)
    return index is not None and instructions[index].opname not in DIRECT_LOOKUPS


def _caught_on_the_way(stopped: Any, exception: BaseException) -> bool:
    """Whether a caller between the stopped frame and the runner's call catches the exception."""
    frame = stopped.f_back
    while frame is not None and frame.f_code.co_name not in RUNNER_CALLS:
        if _catches(frame, exception):
            return True
        frame = frame.f_back
    return False


def _catches(frame: Any, exception: BaseException) -> bool:
    """Whether the handler around `frame`'s current instruction takes `exception`: an `except` whose class
    matches (its expression read as the frame would, names and attributes), or a bare `except:`. A `with` (its
    `__exit__` decides at run time) and a `finally` pass it on; so does what cannot be read."""
    table = _handlers(frame.f_code)
    entry = next(((start, target) for start, end, target in table if start <= frame.f_lasti < end), None)
    if entry is None:
        return False
    instructions, at = _instructions(frame.f_code)
    index, values, seen = at.get(entry[1]), [], 0
    while index is not None and index < len(instructions) and seen < 400:
        seen += 1
        ins = instructions[index]
        name = ins.opname
        if name == "WITH_EXCEPT_START":
            return _expecting(frame, exception, instructions, at.get(entry[0]))
        if name in ("RERAISE", "RAISE_VARARGS", "CHECK_EG_MATCH"):
            return False  # a `finally`, a handler that raises (this exception or another), an except*
        if name == "POP_EXCEPT":
            return True  # the end of a bare `except:` taken before any class was checked
        if name == "CHECK_EXC_MATCH":
            try:
                if isinstance(exception, values[-1]):
                    return True
            except (TypeError, IndexError):
                return False
            jump = instructions[index + 1]  # the jump to the next clause when this one does not match
            index, values = at.get(jump.argval), []
            continue
        if name == "JUMP_FORWARD":
            index = at.get(ins.argval)
            continue
        _read(frame, ins, values)
        index += 1
    return False


NAME_LOADS = frozenset({"LOAD_GLOBAL", "LOAD_NAME", "LOAD_FAST", "LOAD_DEREF"})


def _read(frame: Any, ins: Any, values: list[Any]) -> None:
    """What a load of a name or of an attribute, or a tuple of what was loaded, gives in `frame`, on `values`
    (an `except` clause's classes, a context manager's arguments); other instructions leave them."""
    name = ins.opname
    if name in ("LOAD_GLOBAL", "LOAD_NAME"):
        values.append(_named(frame, ins.argval, local=name == "LOAD_NAME"))
    elif name in ("LOAD_FAST", "LOAD_DEREF"):
        values.append(frame.f_locals.get(ins.argval))
    elif name == "LOAD_ATTR" and values:
        values.append(getattr(values.pop(), ins.argval, None))
    elif name == "BUILD_TUPLE" and ins.arg and len(values) >= ins.arg:
        values[-ins.arg:] = [tuple(values[-ins.arg:])]


EXPECTING = frozenset({"assertRaises", "assertRaisesRegex", "raises", "suppress"})
"""Context managers that take the exceptions given to them (unittest's, pytest's, contextlib's): an exception of
those classes in their `with` block does not leave it. Any other `with` is taken to pass it on."""


EXPECTED_ATTRIBUTES = ("expected", "expected_exception", "_exceptions")
"""Where a context manager already made keeps the exceptions it takes: unittest's assertRaises context,
pytest's raises, contextlib's suppress."""


def _expecting(frame: Any, exception: BaseException, instructions: list[Any], body: int | None) -> bool:
    """Whether the `with` whose block starts at instruction `body` is one of EXPECTING given a class of
    `exception`: read back from its BEFORE_WITH to the call that made the context manager."""
    start = next((i for i in range((body or 0) - 1, max((body or 0) - 8, -1), -1)
                  if instructions[i].opname == "BEFORE_WITH"), None)
    if start is None:
        return False
    before = instructions[start - 1] if start else None
    if before is not None and before.opname in NAME_LOADS:  # `with self:` (unittest's handle)
        loaded: list[Any] = []
        _read(frame, before, loaded)
        manager = loaded[0]
        kinds = next((getattr(manager, a) for a in EXPECTED_ATTRIBUTES if hasattr(manager, a)), ())
        try:
            return isinstance(exception, kinds)
        except TypeError:
            return False
    call = next((i for i in range(start - 1, max(start - 60, -1), -1)
                 if instructions[i].opname in ("LOAD_ATTR", "LOAD_METHOD", "LOAD_GLOBAL", "LOAD_NAME")
                 and instructions[i].argval in EXPECTING), None)
    if call is None:
        return False
    values: list[Any] = []
    for ins in instructions[call + 1:start]:
        if ins.opname in ("LOAD_CONST", "KW_NAMES", "PRECALL", "CALL"):
            break
        _read(frame, ins, values)
    expected = tuple(values) if instructions[call].argval == "suppress" else values[:1]
    try:
        return any(isinstance(exception, kind) for kind in expected)
    except TypeError:
        return False


def _named(frame: Any, name: str, local: bool) -> Any:
    for namespace in ((frame.f_locals,) if local else ()) + (frame.f_globals, vars(builtins)):
        if name in namespace:
            return namespace[name]
    return None


@functools.lru_cache(maxsize=512)
def _handlers(code: Any) -> tuple[tuple[int, int, int], ...]:
    """The code's exception table (Python 3.11+): (start, end, handler) by byte offset, innermost first."""
    parse = getattr(dis, "_parse_exception_table", None)
    if parse is None:
        return ()
    try:
        return tuple((e.start, e.end, e.target) for e in parse(code))
    except Exception:
        return ()


@functools.lru_cache(maxsize=512)
def _instructions(code: Any) -> tuple[list[Any], dict[int, int]]:
    instructions = list(dis.get_instructions(code))
    return instructions, {ins.offset: i for i, ins in enumerate(instructions)}
