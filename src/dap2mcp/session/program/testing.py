"""`debug` mode `test`: a project's tests run under the debugger, stopping where the first failing test fails.

A test runner catches every failure (to report it and run the next test), so the program never stops by
itself. What stops it is on the adapter's profile (`TestRunner`): exception filters (debugpy's
`userUnhandled`: an exception leaving the project's code for the runner's) or breakpoints on the functions a
failing test calls, made an exception filter of the profile's (`FunctionFilter`: Go's `testing.(*common).Fail`);
an exception stop that fails no test (a skipped test), or the same failure reported again (Go's `Fail` for the
parent test), is gone on from without a word. This module holds what every language shares: the stops a run starts with,
the judging of an exception stop, and what the end of a run says.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from ...adapters import AdapterProfile, Target
from ...adapters.base import FunctionFilter, TestRunner
from ...dap import bodies
from ...errors import DebugError, ErrorCode, Failure
from ..breakpoints.specs import BreakpointSpec

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
"""A terminal colour in a runner's summary (Vitest colours it on a pipe too)."""


def runner(profile: AdapterProfile, target: Target) -> TestRunner:
    if (tests := profile.test_runner(target)) is None:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"mode 'test' is not available with the {profile.name} adapter "
                         "(it runs pytest under debugpy, go test under delve, cargo test under lldb, and node:test, "
                         "mocha, Jest or Vitest under js-debug)")
    return tests


def starting_breakpoints(profile: AdapterProfile, target: Target, given: list[BreakpointSpec]) -> list[BreakpointSpec]:
    """The agent's breakpoints, and the runner's stops where the agent set none of the same: they are the
    agent's to see, change or clear like any other, and `restart` carries them as it carries those."""
    exceptions = {spec.exception for spec in given if spec.exception}
    return [*given, *(BreakpointSpec(exception=name) for name in runner(profile, target).stop_filters
                      if name not in exceptions)]


def judged(target: Target, profile: AdapterProfile, body: bodies.StoppedBody, caught: FunctionFilter | None) -> bool:
    """Whether an adapter's stop must be judged before it is taken: an exception stop in a test run whose
    runner can tell a failure from an exception that fails no test, or a function filter's stop that may be
    the last one's failure reported again (`caught`: the filter the stop is at, if any)."""
    if not body.threadId:
        return False
    if caught is not None and caught.again_from is not None:
        return True
    tests = _runner_of_run(profile, target)
    return tests is not None and (tests.failure_check is not None or tests.records_failures) \
        and body.reason == "exception"


def _runner_of_run(profile: AdapterProfile, target: Target) -> TestRunner | None:
    """The runner of a test run, whose session `target` is or one of its processes' (a worker's, attached to)."""
    return profile.test_runner(target) if target.mode == "test" or target.runner is not None else None


async def fails(target: Target, profile: AdapterProfile, body: bodies.StoppedBody, caught: FunctionFilter | None,
                request: Callable[[str, dict[str, Any]], Awaitable[Any]]) -> bool:
    """Whether the stop is a failure of its own: not one a function filter's `again_from` reports once more, and
    at an exception, one that fails a test by the runner's `failure_check` evaluated in the stopped thread, and
    not in library code where the runner records failures itself (`TestRunner.records_failures`).
    Where it cannot be told, it is: a stop too many beats a failure run past. `request`: the link's, whose answers
    are typed (`bodies.RESPONSES`)."""
    repeated = caught.again_from if caught is not None else None
    tests = _runner_of_run(profile, target)
    check = tests.failure_check if tests is not None else None
    try:
        stack: bodies.StackTraceBody = await request("stackTrace", {"threadId": body.threadId,
                                                                     "levels": 2 if repeated else 1})
        frames = stack.stackFrames
        if repeated is not None:
            return not (len(frames) > 1 and repeated.search(frames[1].name))
        if frames and tests is not None and tests.records_failures and profile.library_files is not None \
                and profile.library_files.search(frames[0].path or ""):
            return False
        if not frames or check is None:
            return True
        answer = await request("evaluate", {"expression": check, "frameId": frames[0].id, "context": "watch"})
    except Failure as exc:
        log.debug("could not judge a test's stop: %s", exc)
        return True
    return str(answer.get("result")) != "False"


def at_end(target: Target, profile: AdapterProfile, exit_code: int | None, output: str) -> str | None:
    """What the end of a test run says beyond its exit code: that the filter selected no test, or, where they
    passed, the tests the runner would run next that this run did not (one session debugs one program)."""
    tests = profile.test_runner(target)
    if target.mode != "test" or tests is None:
        return None
    if target.not_run and exit_code == 0:
        return (f"only the first test binary with tests selected ran, and passed; {tests.runner} would go on to "
                f"{len(target.not_run)} more with tests selected: {'; '.join(target.not_run)}. To debug one, `debug` "
                "again with `test` set to a name only its tests have")
    if (tests.nothing_selected_exit is not None and exit_code == tests.nothing_selected_exit) or (
            tests.nothing_selected_text is not None and tests.nothing_selected_text.search(_COLOUR.sub("", output))):
        chosen = f"`path` {target.path!r}" + (f" and `test` {target.test!r}" if target.test else "")
        return (f"no test ran: {tests.runner} found no test to run in {chosen}; check the names (and `cwd`, "
                "which relative paths are read from)")
    return None
