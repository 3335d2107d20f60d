"""The run state of a session through each adapter's transcript, quirks included: the real `DebugSession`,
`Run` and `Stops`, with a transcript of the real adapter played back in its place (see scripted_adapter.py;
tests/transcripts/ holds the transcripts, recorded by these tests with DAP2MCP_RECORD_TRANSCRIPTS=1).

The state while the program runs is read from the requests the session sent (`Sent.seen`: its state and
stop count as it sent each), the state at a stop from the session once the stop is in.
"""

from __future__ import annotations

import asyncio
from typing import Any

from scripted_adapter import scripted_session

from dap2mcp.adapters import PROFILES
from dap2mcp.dap import bodies
from dap2mcp.session.breakpoints.registry import BreakpointRegistry
from dap2mcp.session.breakpoints.specs import BreakpointSpec
from dap2mcp.session.models import StopInfo
from dap2mcp.session.program.run import Run
from dap2mcp.session.session import DebugSession
from dap2mcp.session.stop.stops import Stops

from conftest import PROGRAMS, ROOT, marker

BOUND = 60.0
"""A hang guard, far above anything normal: a played transcript takes milliseconds, a recording seconds."""


async def stopped(session: DebugSession, since: int) -> StopInfo:
    """The stop after stop number `since`."""
    assert await session.wait_for_stop(since, BOUND), "no stop within the hang guard"
    assert session.state == "paused" and session.stop_count == since + 1, (session.state, session.stop_count)
    assert session.stop_info is not None
    return session.stop_info


def adapter_ids(session: DebugSession) -> dict[int, int | None]:
    """The adapter's id of each of the agent's breakpoints, by line."""
    return {bp.line or 0: bp.adapter_id for bp in session.breakpoints.all()}


# -- lldb-dap ------------------------------------------------------------------------------------


async def test_lldb_a_next_cut_short_by_a_breakpoint_is_stepped_past_at_the_next_continue(monkeypatch, tmp_path):
    """lldb-dap keeps the step plan of a `next` that a breakpoint interrupted, and at the next `continue`
    finishes it, as a stop with reason `step` nobody asked for: the session continues past it, so the
    `continue` ends at the next breakpoint, as it would in any other adapter."""
    program = PROGRAMS / "calls.c"
    call, leaf = marker(program, "call"), marker(program, "leaf")
    async with scripted_session("lldb-stray-step", "lldb", program, monkeypatch, tmp_path) as run:
        s = run.session
        await s.start([BreakpointSpec(file=str(program), line=call), BreakpointSpec(file=str(program), line=leaf)])
        ids = adapter_ids(s)
        at_call = await stopped(s, 0)
        assert (at_call.reason, at_call.hit_breakpoint_ids) == ("breakpoint", [ids[call]])

        since = await s.step("over", s.thread(None))
        cut_short = await stopped(s, since)  # the `next` over middle() stops in leaf()
        assert (cut_short.reason, cut_short.hit_breakpoint_ids) == ("breakpoint", [ids[leaf]])
        assert cut_short.thread_id == at_call.thread_id

        await s.remove_breakpoints(s.breakpoints.take([bp.id for bp in s.breakpoints.all() if bp.line == leaf]))
        since = await s.resume(None)
        again = await stopped(s, since)  # not the step's stop back in top(): the next loop's breakpoint
        assert (again.reason, again.hit_breakpoint_ids, s.stop_count) == ("breakpoint", [ids[call]], 3)
        continues = run.requests("continue")
        assert [c.seen for c in continues] == [("running", 2), ("running", 2)]  # the second: past the stray stop
        assert continues[1].arguments["threadId"] == at_call.thread_id


async def test_lldb_a_pause_is_a_pause_whatever_lldb_names_its_stop(monkeypatch, tmp_path):
    """lldb-dap names the stop of a pause after what the thread was doing: with a step under way that never
    ends, `step` (or a breakpoint of its own, or SIGSTOP). Each is read as the pause asked for, and a `step`
    stop after a `continue` is not taken for a stray step stop (which would be continued past, and the pause
    never land)."""
    program = PROGRAMS / "spin.c"
    spin = marker(program, "spin")
    async with scripted_session("lldb-pause", "lldb", program, monkeypatch, tmp_path) as run:
        s = run.session
        await s.start([BreakpointSpec(file=str(program), line=spin)])
        assert (await stopped(s, 0)).reason == "breakpoint"
        await s.remove_breakpoints(s.breakpoints.take([s.breakpoints.all()[0].id]))
        since = await s.step("over", s.thread(None))  # `k++` of `for (;;)`: the step never ends
        for turn in range(6):
            since = await s.pause(None)
            info = await stopped(s, since)
            assert (info.reason, s.run.pausing) == ("pause", False), turn
            assert info.thread_id == run.requests("pause")[-1].arguments["threadId"]
            since = await s.resume(None)
        assert [p.seen for p in run.requests("pause")] == [("running", n) for n in range(1, 7)]
        named = [body["reason"] for body in run.events("stopped")][1:]
        assert "exception" in named, named  # lldb's SIGSTOP
        assert "step" in named[1:], named  # a pause after a `continue`, named after the step under way


async def test_lldb_a_crash_stops_as_an_exception_and_exits_with_the_signal_as_a_shell_reports_it(monkeypatch, tmp_path):
    """lldb gives a program killed by a signal the signal's number as its exit status (11 for SIGSEGV): after a
    stop on that signal the exit code reads as a shell reports it, 128 + 11."""
    program = PROGRAMS / "segv.c"
    async with scripted_session("lldb-crash", "lldb", program, monkeypatch, tmp_path) as run:
        s = run.session
        await s.start()
        crash = await stopped(s, 0)
        assert crash.reason == "exception" and "SIGSEGV" in (crash.description or ""), crash
        since = await s.resume(None)
        assert await s.wait_for_stop(since, BOUND)
        assert (s.state, s.stop_count) == ("terminated", 1)
        assert [e["exitCode"] for e in run.events("exited")] == [11]
        assert s.exit_code == 139
        assert "killed by signal SIGSEGV (exit code 139" in s.ended_text()


# -- cdt-gdb-adapter ------------------------------------------------------------------------------


async def test_gdb_a_breakpoint_stop_is_given_the_breakpoint_gdb_does_not_name_and_the_printed_exit_ends_the_run(
        monkeypatch, tmp_path):
    """cdt-gdb-adapter names no breakpoint in a stop: the session finds it at the stopped frame's line. It sends
    no `exited` event either: the end is gdb's console line "[Inferior 1 (process N) exited with code 01]",
    the code in octal, and a `terminated` event may come only once the session disconnects."""
    program = ROOT / "examples" / "c" / "invoice.c"
    line = marker(program, "print")
    async with scripted_session("gdb-breakpoint-exit", "gdb", program, monkeypatch, tmp_path) as run:
        s = run.session
        await s.start([BreakpointSpec(file=str(program), line=line)])
        at = await stopped(s, 0)
        assert [body.get("hitBreakpointIds") for body in run.events("stopped")] == [None]
        assert (at.reason, at.hit_breakpoint_ids) == ("breakpoint", [adapter_ids(s)[line]])
        assert s.breakpoints.all()[0].hit_count == 1
        assert [t.arguments["levels"] for t in run.requests("stackTrace")][0] == 1  # the stop's own frame, first

        since = await s.resume(None)
        assert await s.wait_for_stop(since, BOUND)
        assert (s.state, s.exit_code, s.stop_count) == ("terminated", 1, 1)
        assert not run.events("exited")
        assert s.ended_text() == "the program exited with code 1"
        await s.ended(BOUND)  # the session lets go of the adapter by itself: nothing else would end the run
        assert run.requests("disconnect")[0].seen == ("terminated", 1)


async def test_gdb_a_program_killed_by_a_signal_ends_with_the_signal_as_a_shell_reports_it(monkeypatch, tmp_path):
    """gdb says a fatal signal's end only in its console: "Program terminated with signal SIGSEGV"."""
    program = PROGRAMS / "segv.c"
    async with scripted_session("gdb-crash", "gdb", program, monkeypatch, tmp_path) as run:
        s = run.session
        await s.start()
        crash = await stopped(s, 0)
        assert crash.reason == "exception" and "SIGSEGV" in (crash.description or ""), crash
        since = await s.resume(None)
        assert await s.wait_for_stop(since, BOUND)
        assert (s.state, s.exit_code, s.stop_count) == ("terminated", 139, 1)
        assert not run.events("exited")


# -- Delve -------------------------------------------------------------------------------------


async def test_delve_a_pause_stop_names_no_thread_and_is_given_the_current_goroutine(monkeypatch, tmp_path):
    """Delve's stop after a pause has no threadId: the session asks for the threads and takes the current one
    (the one Delve's list marks with `*`) before it counts the stop."""
    program = PROGRAMS / "ticker_go"
    async with scripted_session("delve-pause", "delve", program, monkeypatch, tmp_path) as run:
        s = run.session
        await s.start()
        assert s.state == "running"
        since = await s.pause(None)
        info = await stopped(s, since)
        assert [body.get("threadId") for body in run.events("stopped")] == [None]
        threads = run.requests("threads")
        assert threads[-1].seen == ("running", 0)  # asked before the stop was counted
        assert info.reason == "pause" and info.thread_id is not None and info.thread_id > 0


async def test_delve_a_panic_is_an_exception_that_says_what_panicked(monkeypatch, tmp_path):
    """Delve's stop names the panic in its description and says what panicked only in its text; the program's
    end after it comes as an `exited` event (Delve 1.27; 1.20 sent none, and its exit code came only in what it
    printed as it let go: "has exited with status 2")."""
    program = PROGRAMS / "go_panic"
    async with scripted_session("delve-panic", "delve", program, monkeypatch, tmp_path) as run:
        s = run.session
        await s.start()
        panic = await stopped(s, 0)
        assert panic.reason == "exception"
        assert panic.description is not None and panic.description.startswith("panic: ") \
            and "index out of range [5] with length 3" in panic.description, panic
        since = await s.resume(None)
        assert await s.wait_for_stop(since, BOUND)
        assert s.state == "terminated" and run.events("exited") == [{"exitCode": 2}]
        await s.ended(BOUND)
        assert s.exit_code == 2


# -- debugpy -----------------------------------------------------------------------------------


async def test_debugpy_breakpoint_step_and_exit(monkeypatch, tmp_path):
    program = PROGRAMS / "exits.py"
    async with scripted_session("debugpy-step-exit", "debugpy", program, monkeypatch, tmp_path) as run:
        s = run.session
        await s.start([BreakpointSpec(file=str(program), line=5)])
        at = await stopped(s, 0)
        assert (at.reason, at.hit_breakpoint_ids) == ("breakpoint", [adapter_ids(s)[5]])
        since = await s.step("over", s.thread(None))
        step = await stopped(s, since)
        assert (step.reason, step.thread_id, s.run.last_move) == ("step", at.thread_id, "next")
        since = await s.resume(None)
        assert await s.wait_for_stop(since, BOUND)
        assert (s.state, s.exit_code, s.stop_count) == ("terminated", 3, 2)
        assert [m.seen for m in run.sent if m.command in ("next", "continue")] == [("running", 1), ("running", 2)]


async def test_debugpy_a_pause_stops_the_thread_asked_and_a_continue_runs_it_again(monkeypatch, tmp_path):
    program = PROGRAMS / "spin.py"
    async with scripted_session("debugpy-pause", "debugpy", program, monkeypatch, tmp_path) as run:
        s = run.session
        await s.start()
        since = await s.pause(None)
        info = await stopped(s, since)
        assert (info.reason, info.thread_id) == ("pause", run.requests("pause")[0].arguments["threadId"])
        since = await s.resume(None)
        assert [c.seen for c in run.requests("continue")] == [("running", 1)]
        since = await s.pause(None)
        assert (await stopped(s, since)).reason == "pause"


# -- the run state alone -----------------------------------------------------------------------


def at(reason: str, description: str | None = None) -> StopInfo:
    return StopInfo(reason=reason, thread_id=1, description=description)


async def test_a_move_runs_the_program_and_a_refused_one_leaves_it_where_it_was():
    run = Run()
    run.started()
    run.stopped(at("breakpoint"))
    since = run.moving("next")
    assert (run.state, run.last_move, run.stepping, since) == ("running", "next", True, 1)
    assert run.move_refused(since) and run.state == "paused"

    since = run.moving("continue")
    run.stopped(at("breakpoint"))  # it stopped before the refusal came: that stop stands
    assert not run.move_refused(since) and (run.state, run.stop_count) == ("paused", 2)
    run.continued({})
    assert run.state == "running"


async def test_a_pause_is_awaited_until_its_stop_is_read_or_the_adapter_refuses_it():
    run = Run()
    run.pause_asked()
    assert run.pausing
    run.pause_refused()
    assert not run.pausing and not run.take_pause()
    run.pause_asked()
    assert run.take_pause() and not run.pausing  # the stop now read is the pause's; the next one is not
    assert not run.take_pause()


async def test_only_an_adapter_with_stray_step_stops_continues_past_a_step_stop_after_a_continue():
    step = bodies.StoppedBody(reason="step", threadId=1)
    lldb = Run(stray_step_stops=True)
    lldb.moving("continue")
    assert lldb.stray_step(step) and not lldb.stray_step(bodies.StoppedBody(reason="breakpoint"))
    lldb.pause_asked()
    assert not lldb.stray_step(step)  # the pause's own stop, named after the step under way
    lldb.take_pause()
    lldb.moving("next")
    assert not lldb.stray_step(step)  # the step asked for
    other = Run()
    other.moving("continue")
    assert not other.stray_step(step)


async def test_the_end_is_news_once_and_stops_after_it_change_nothing_it_says():
    run = Run()
    changes = []
    run.on_change = lambda: changes.append(run.state)
    run.started()
    assert run.ended() and run.state == "terminated"
    assert not run.ended()
    assert changes == ["running", "terminated"]
    run.ending("stop")
    assert run.ended_by is None  # it had ended by itself already


async def test_an_exit_by_a_signal_reads_as_a_shell_reports_it():
    lldb = Run()
    lldb.stopped(at("exception", "signal SIGSEGV"))
    lldb.exited({"exitCode": 11})  # lldb: the signal's number as the status
    assert (lldb.exit_code, lldb.last_signal()) == (139, ("SIGSEGV", 11))
    plain = Run()
    plain.stopped(at("breakpoint"))
    plain.exited({"exitCode": 11})
    assert plain.exit_code == 11  # exit(11)
    for status in (-15, 241):  # debugpy: the status as Python has it, or its byte
        ended = Run()
        ended.signalling(15)  # `stop` sent SIGTERM
        ended.exited({"exitCode": status})
        assert ended.exit_code == 143, status
    gdb = Run()
    gdb.exit_printed(1)
    assert gdb.exit_code == 1 and gdb.state == "starting"  # the end itself comes apart from its code


async def test_waiting_for_a_stop_wakes_at_the_stop_and_at_the_end():
    run = Run()
    run.started()
    waiting = asyncio.ensure_future(run.wait_for_stop(0, BOUND))
    await asyncio.sleep(0)
    run.notify()  # a change that is no stop
    await asyncio.sleep(0)
    assert not waiting.done()
    run.stopped(at("breakpoint"))
    assert await waiting and run.stop_count == 1

    waiting = asyncio.ensure_future(run.wait_for_stop(1, BOUND))
    await asyncio.sleep(0)
    run.moving("continue")
    run.ended()
    assert await waiting and run.state == "terminated"
    assert not await Run().wait_for_stop(0, 0)  # no time left and no stop: False


async def test_a_step_delve_could_not_carry_out_is_the_steps_failure_not_the_programs_exception():
    """Delve reports a step it could not take (a `step out` of the vDSO a pause landed in) as a stop with reason
    `exception`, description "runtime error" and the error as its text; read as the program's exception it sent
    the agent after a panic that never was (found by an exploratory user). A panic of the program's own stays
    an exception."""
    profile = PROFILES["delve"]
    run = Run()
    registry = BreakpointRegistry(profile, [], capabilities=dict, edited=False, place_function=None,
                                  function_filters=tuple)
    stops = Stops(profile, registry, run)
    run.started()
    run.moving("stepOut")
    failed = stops.read(bodies.StoppedBody(reason="exception", description="runtime error", text="input/output error",
                                           threadId=1))
    assert failed.reason == "step failed", failed
    assert failed.description.startswith("delve could not carry out the `step out`: input/output error"), failed
    run.stopped(failed)
    run.moving("stepOut")
    panic = stops.read(bodies.StoppedBody(reason="exception", description="panic", threadId=1,
                                          text='"runtime error: index out of range [5] with length 3"'))
    assert (panic.reason, panic.description) == ("exception", "panic: runtime error: index out of range [5] with "
                                                               "length 3"), panic


class _Stack:
    """Stands in for js-debug's `stackTrace` answer, all the judging of the stop below reads."""

    def __init__(self, path: str, line: int) -> None:
        self.frame = {"id": 0, "name": "<anonymous>", "line": line, "column": 1, "source": {"path": path}}
        self.asked: list[str] = []

    async def request(self, command: str, arguments: dict | None = None, timeout: float = 0) -> Any:
        self.asked.append(command)
        return bodies.response(command, {"stackFrames": [self.frame]})


async def test_js_debug_a_pause_nobody_asked_for_is_the_programs_stop_only_at_a_debugger_statement(tmp_path):
    """js-debug describes every pause of V8's that no breakpoint and no request of its own explains as
    "Paused on debugger statement". Under load (a CI run, and 1 run in 7 by hand beside two busy loops), a new
    Jest worker paused so at the first statement of dap2mcp's preloaded node_test_failure.cjs (line 17, no
    `debugger` there), and the agent was shown that stop instead of the run's end. Such a stop is gone on from
    (session.py `_judge_pause`) unless its line asks for it; a pause the agent asked for is always its stop.
    The stack is stood in for: the adapter cannot be made to pause so on demand."""
    program = tmp_path / "app.js"
    program.write_text("const a = 1;\ndebugger; // look here\nconsole.log(a);\n")
    preload = ROOT / "src" / "dap2mcp" / "adapters" / "node_test_failure.cjs"
    unasked = bodies.StoppedBody(reason="pause", description="Paused on debugger statement", threadId=3,
                                 allThreadsStopped=False)
    run = Run()
    stops = Stops(PROFILES["node"], BreakpointRegistry(PROFILES["node"], []), run)
    assert stops.may_be_unasked(unasked)
    at_first_statement = _Stack(str(preload), 17)
    assert await stops.unasked(unasked, at_first_statement) and at_first_statement.asked == ["stackTrace"]
    assert not await stops.unasked(unasked, _Stack(str(program), 2))  # the program's own `debugger;`
    assert not await stops.unasked(unasked, _Stack(str(tmp_path / "gone.js"), 1))  # unread: shown, not lost

    run.pause_asked()
    assert not stops.may_be_unasked(unasked)  # the agent's pause
    run.take_pause()
    assert not stops.may_be_unasked(unasked.model_copy(update={"description": "Paused"}))
    assert not stops.may_be_unasked(unasked.model_copy(update={"reason": "breakpoint"}))
    python = Stops(PROFILES["debugpy"], BreakpointRegistry(PROFILES["debugpy"], []), Run())
    assert not python.may_be_unasked(unasked)
