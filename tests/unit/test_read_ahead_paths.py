"""The stop read-ahead's decisions, one by one: when its guessed answers are used, when the view is read again
the plain way, and when a failure is reported at once.

The requester here is scripted: a real adapter cannot be made on demand to refuse a guessed id, time out on
one request or hand out other scope references for the same frame. How the read-ahead fares against real
adapters is tests/integration/test_read_ahead.py.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dap2mcp.adapters.base import EvaluationRules
from dap2mcp.dap import AdapterRefused, AdapterTimedOut, bodies
from dap2mcp.errors import ErrorCode, Failure
from dap2mcp.server.failures import coded
from dap2mcp.session.stop.inspect import FrameView, Guess, Limits, ViewScope, fetch_view
from dap2mcp.session.stop.recorder import GUESSED_THREADS, StopRecorder

FRAME, LOCALS, GLOBALS = 7, 11, 12


class Adapter:
    """Answers stackTrace, scopes and variables for one stopped thread, each after a turn of the loop, as an
    adapter answers later than it is asked. `refuse`, `refuse_once` and `stall` name the requests to fail, and
    `hang` those never answered: by command, or by (command, id) for one frame or reference."""

    def __init__(self, frames: dict[int, tuple[int, ...]] | None = None,
                 refuse: set[Any] | None = None, refuse_once: set[Any] | None = None,
                 stall: set[Any] | None = None, hang: set[Any] | None = None, stale: tuple[int, ...] = ()) -> None:
        self.frames = frames or {FRAME: (LOCALS, GLOBALS)}
        """The stack, top first: each frame's id and its scopes' references."""
        self.refuse = refuse or set()
        self.refuse_once = refuse_once or set()
        self.stall = stall or set()
        self.hang = hang or set()
        self.stale = stale
        """References of an earlier stop the adapter still answers for, with what they held then."""
        self.sent: list[tuple[str, int | None]] = []

    async def request(self, command: str, arguments: dict[str, Any] | None = None, timeout: float = 10.0) -> Any:
        """The answer typed, as the link types it (`bodies.response`)."""
        return bodies.response(command, await self._answer(command, arguments or {}, timeout))

    async def _answer(self, command: str, arguments: dict[str, Any], timeout: float) -> dict[str, Any]:
        key = arguments.get("frameId", arguments.get("variablesReference"))
        self.sent.append((command, key))
        await asyncio.sleep(0)
        if command in self.hang or (command, key) in self.hang:
            await asyncio.Event().wait()
        if command in self.stall or (command, key) in self.stall:
            raise AdapterTimedOut(command, timeout)
        if (command, key) in self.refuse_once and self.sent.count((command, key)) == 1:
            raise AdapterRefused(command, f"unknown id {key}")
        if command in self.refuse or (command, key) in self.refuse:
            raise AdapterRefused(command, f"unknown id {key}")
        if command == "stackTrace":
            return {"stackFrames": [{"id": frame, "name": f"f{frame}", "line": 9, "column": 1,
                                     "source": {"path": "/p/loop.py"}} for frame in self.frames],
                    "totalFrames": len(self.frames)}
        if command == "scopes":
            if key not in self.frames:
                raise AdapterRefused(command, f"unknown frame {key}")
            return {"scopes": [{"name": f"scope {ref}", "variablesReference": ref, "expensive": False}
                               for ref in self.frames[key]]}
        if key in self.stale:
            return {"variables": [{"name": f"stale{key}", "value": "0", "type": "int", "variablesReference": 0}]}
        if not any(key in refs for refs in self.frames.values()):
            raise AdapterRefused(command, f"unknown reference {key}")
        return {"variables": [{"name": f"v{key}", "value": str(key), "type": "int", "variablesReference": 0}]}


async def read(adapter: Adapter, guess: Guess | None) -> FrameView:
    view, _ = await fetch_view(adapter, {}, thread_id=1, frame_id=None, max_frames=20, reason="step",
                               limits=Limits(), guess=guess)
    return view


def shown(view: FrameView) -> dict[int, list[str]]:
    return {ref: [v.name for v in variables] for ref, variables in view.variables.items()}


def no_reads_left() -> None:
    left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]
    assert not left, f"reads still pending after the view: {left}"


async def test_a_guess_that_holds_is_the_whole_read() -> None:
    adapter = Adapter()
    view = await read(adapter, Guess(FRAME, (LOCALS, GLOBALS)))
    assert adapter.sent == [("stackTrace", None), ("scopes", FRAME), ("variables", LOCALS), ("variables", GLOBALS)]
    assert shown(view) == {LOCALS: [f"v{LOCALS}"], GLOBALS: [f"v{GLOBALS}"]}
    no_reads_left()


async def test_a_step_into_a_call_reads_the_new_frame() -> None:
    """The guessed frame is still on the stack, as the caller: its scopes are answered, and are not the top's."""
    adapter = Adapter(frames={8: (31, 32), FRAME: (LOCALS, GLOBALS)})
    view = await read(adapter, Guess(FRAME, (LOCALS, GLOBALS)))
    assert adapter.sent[-3:] == [("scopes", 8), ("variables", 31), ("variables", 32)]
    assert view.focus is not None and view.focus.id == 8
    assert shown(view) == {31: ["v31"], 32: ["v32"]}
    no_reads_left()


async def test_new_scope_references_are_read_again() -> None:
    adapter = Adapter(frames={FRAME: (21, 22)}, stale=(LOCALS, GLOBALS))
    view = await read(adapter, Guess(FRAME, (LOCALS, GLOBALS)))
    assert adapter.sent.count(("scopes", FRAME)) == 2
    assert adapter.sent[-2:] == [("variables", 21), ("variables", 22)]
    assert shown(view) == {21: ["v21"], 22: ["v22"]}
    no_reads_left()


async def test_a_refused_guess_is_read_again() -> None:
    adapter = Adapter(refuse_once={("variables", GLOBALS)})
    view = await read(adapter, Guess(FRAME, (LOCALS, GLOBALS)))
    assert adapter.sent.count(("scopes", FRAME)) == 2
    assert shown(view) == {LOCALS: [f"v{LOCALS}"], GLOBALS: [f"v{GLOBALS}"]}
    no_reads_left()


@pytest.mark.parametrize("stalled", ["scopes", "variables"])
async def test_a_timeout_is_reported_at_once_not_waited_out_again(stalled: str) -> None:
    adapter = Adapter(stall={stalled})
    with pytest.raises(Failure) as caught:
        await read(adapter, Guess(FRAME, (LOCALS, GLOBALS)))
    assert coded(caught.value).code == ErrorCode.TIMEOUT
    assert adapter.sent.count(("scopes", FRAME)) == 1, "the view was asked for again after a timeout"
    no_reads_left()


async def test_a_failed_stack_drops_the_reads_sent_ahead() -> None:
    adapter = Adapter(refuse={"stackTrace"}, hang={"scopes", "variables"})
    with pytest.raises(Failure) as caught:
        await read(adapter, Guess(FRAME, (LOCALS, GLOBALS)))
    assert coded(caught.value).code == ErrorCode.ADAPTER_ERROR  # the stop's own thread: no mistake of the agent's
    for _ in range(3):  # let the dropped reads see their cancellation
        await asyncio.sleep(0)
    no_reads_left()


async def test_a_cancelled_read_leaves_nothing_behind() -> None:
    adapter = Adapter()
    gate = asyncio.Event()
    original = adapter.request

    async def slow_stack(command: str, arguments: dict[str, Any] | None = None, timeout: float = 10.0) -> Any:
        if command == "stackTrace":
            await gate.wait()
        return await original(command, arguments, timeout)

    adapter.request = slow_stack  # type: ignore[method-assign]
    task = asyncio.ensure_future(read(adapter, Guess(FRAME, (LOCALS, GLOBALS))))
    for _ in range(5):
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(0)
    no_reads_left()


async def test_guesses_are_kept_for_the_threads_stopped_last() -> None:
    """A long session stopping on many threads (a Go program's goroutines) keeps a bounded set of guesses: the
    threads that stopped most recently still read ahead, the oldest read the plain way again."""
    adapter = Adapter()
    recorder = StopRecorder(adapter, dict, Limits(), steady_ids=True)

    async def stop(cycle: int, thread: int) -> list[tuple[str, int | None]]:
        """The requests sent up to the stack's answer at this stop."""
        adapter.sent.clear()
        answered: list[tuple[str, int | None]] = []
        original = adapter.request

        async def note(command: str, arguments: dict[str, Any] | None = None, timeout: float = 10.0) -> Any:
            body = await original(command, arguments, timeout)
            if command == "stackTrace":
                answered.extend(adapter.sent)
            return body

        adapter.request = note  # type: ignore[method-assign]
        try:
            recorder.on_stop(cycle, thread, "step")
            assert await recorder.stop_view(cycle) is not None
            await recorder.settle()
        finally:
            adapter.request = original  # type: ignore[method-assign]
        return answered

    for thread in range(1, GUESSED_THREADS + 11):
        await stop(thread, thread)
    assert ("scopes", FRAME) in await stop(1000, GUESSED_THREADS + 10), "the last thread stopped lost its guess"
    assert await stop(1001, 1) == [("stackTrace", None)], "the thread stopped longest ago kept its guess"


KNOWN = tuple(ViewScope(bodies.Scope(name=f"scope {ref}", variablesReference=ref, expensive=False), listed=True)
              for ref in (LOCALS, GLOBALS))
"""The scopes the last stop read, kept with the guess where an adapter's scopes follow from the frame."""


async def test_scopes_that_follow_from_the_frame_are_not_asked_for_again() -> None:
    adapter = Adapter()
    view = await read(adapter, Guess(FRAME, (LOCALS, GLOBALS), KNOWN))
    assert adapter.sent == [("stackTrace", None), ("variables", LOCALS), ("variables", GLOBALS)]
    assert view.scopes == list(KNOWN)
    assert shown(view) == {LOCALS: [f"v{LOCALS}"], GLOBALS: [f"v{GLOBALS}"]}
    no_reads_left()


async def test_known_scopes_of_another_frame_are_not_used() -> None:
    adapter = Adapter(frames={8: (31, 32), FRAME: (LOCALS, GLOBALS)})
    view = await read(adapter, Guess(FRAME, (LOCALS, GLOBALS), KNOWN))
    assert adapter.sent[-3:] == [("scopes", 8), ("variables", 31), ("variables", 32)]
    assert [s.reference for s in view.scopes] == [31, 32]
    assert shown(view) == {31: ["v31"], 32: ["v32"]}
    no_reads_left()


async def test_a_refused_read_on_known_scopes_is_read_again_the_plain_way() -> None:
    adapter = Adapter(refuse_once={("variables", GLOBALS)})
    view = await read(adapter, Guess(FRAME, (LOCALS, GLOBALS), KNOWN))
    assert adapter.sent.count(("scopes", FRAME)) == 1
    assert shown(view) == {LOCALS: [f"v{LOCALS}"], GLOBALS: [f"v{GLOBALS}"]}
    no_reads_left()


@pytest.mark.parametrize("scopes_by_frame", [True, False])
async def test_a_recorder_asks_for_scopes_again_only_where_they_may_change(scopes_by_frame: bool) -> None:
    adapter = Adapter()
    recorder = StopRecorder(adapter, dict, Limits(), EvaluationRules(scopes_by_frame=scopes_by_frame), steady_ids=True)
    for cycle in (1, 2):
        adapter.sent.clear()
        recorder.on_stop(cycle, 1, "step")
        view = await recorder.stop_view(cycle)
        await recorder.settle()
    assert view is not None and shown(view) == {LOCALS: [f"v{LOCALS}"], GLOBALS: [f"v{GLOBALS}"]}
    assert [s.reference for s in view.scopes] == [LOCALS, GLOBALS]
    assert (("scopes", FRAME) in adapter.sent) is not scopes_by_frame, adapter.sent


class GatedGlobals(Adapter):
    """Answers the Globals `variables` only once `gate` is set: the slow scope (pydevd takes ~0.45 ms for it)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.gate = asyncio.Event()

    async def request(self, command: str, arguments: dict[str, Any] | None = None, timeout: float = 10.0) -> Any:
        if command == "variables" and (arguments or {}).get("variablesReference") == GLOBALS:
            await self.gate.wait()
        return await super().request(command, arguments, timeout)


async def open_gate_later(adapter: GatedGlobals) -> None:
    for _ in range(20):
        await asyncio.sleep(0)
    adapter.gate.set()


async def test_progress_shows_each_scope_as_it_comes_in() -> None:
    adapter = GatedGlobals()
    seen: list[tuple[list[int], bool]] = []
    opening = asyncio.ensure_future(open_gate_later(adapter))
    view, _ = await fetch_view(adapter, {}, thread_id=1, frame_id=None, max_frames=20, reason="step", limits=Limits(),
                               guess=Guess(FRAME, (LOCALS, GLOBALS), KNOWN),
                               progress=lambda partial: seen.append((list(partial.variables), adapter.gate.is_set())))
    await opening
    assert seen == [([LOCALS], False), ([LOCALS, GLOBALS], True)]
    assert shown(view) == {LOCALS: [f"v{LOCALS}"], GLOBALS: [f"v{GLOBALS}"]}
    no_reads_left()


def watch(recorder: StopRecorder, adapter: GatedGlobals) -> tuple[list[bool], list[int]]:
    """Whether the Globals were in when each stop snapshot was built; how many comparisons were made."""
    built: list[bool] = []
    compared = [0]
    make, compare = recorder._stop_snapshot, recorder._compare

    def stop_snapshot(cycle: int, view: FrameView) -> Any:
        built.append(adapter.gate.is_set())
        return make(cycle, view)

    def counted(old: Any, new: Any) -> Any:
        compared[0] += 1
        return compare(old, new)

    recorder._stop_snapshot, recorder._compare = stop_snapshot, counted  # type: ignore[method-assign]
    return built, compared


async def test_the_stop_snapshot_and_its_changes_are_made_while_the_other_scopes_are_read() -> None:
    adapter = GatedGlobals()
    recorder = StopRecorder(adapter, dict, Limits(), EvaluationRules(scopes_by_frame=True), steady_ids=True)
    adapter.gate.set()
    recorder.on_stop(1, 1, "step")  # the first stop has nothing to guess from
    await recorder.stop_view(1)
    adapter.gate.clear()
    built, compared = watch(recorder, adapter)
    opening = asyncio.ensure_future(open_gate_later(adapter))
    recorder.on_stop(2, 1, "step")
    view = await recorder.stop_view(2)
    await opening
    assert view is not None and shown(view) == {LOCALS: [f"v{LOCALS}"], GLOBALS: [f"v{GLOBALS}"]}
    assert built == [False], "the stop snapshot waited for the Globals, which it does not hold"
    assert compared == [1]
    changes = recorder.changes(2)
    assert changes is not None and changes.since == 1
    assert compared == [1], "the changes were worked out again"
    assert recorder.store.stop(2) is not None and recorder.store.stop(2).cycle == 2
    no_reads_left()


async def test_a_stop_snapshot_made_from_a_guess_that_failed_is_made_again() -> None:
    """The Globals refuse the guessed reference: everything is read again, and the snapshot comes from that read."""
    adapter = GatedGlobals(refuse_once={("variables", GLOBALS)})
    recorder = StopRecorder(adapter, dict, Limits(), EvaluationRules(scopes_by_frame=True), steady_ids=True)
    recorder._guesses = {1: Guess(FRAME, (LOCALS, GLOBALS), KNOWN)}  # type: ignore[assignment]
    built, compared = watch(recorder, adapter)
    adapter.gate.set()
    recorder.on_stop(1, 1, "step")
    view = await recorder.stop_view(1)
    assert view is not None and adapter.sent.count(("scopes", FRAME)) == 1
    assert len(built) == 2, "the snapshot made from the failed guess was kept"
    snapshot = recorder.store.stop(1)
    assert snapshot is not None and [node.name for node in snapshot.roots] == [f"v{LOCALS}"]
    no_reads_left()


async def test_a_refused_stack_is_the_agents_mistake_only_where_the_agent_named_the_thread() -> None:
    """A real adapter refuses the stack of a thread it knows only on faults it cannot be made to show here."""
    for named, code in ((True, ErrorCode.INVALID_ARGUMENT), (False, ErrorCode.ADAPTER_ERROR)):
        with pytest.raises(Failure) as refused:
            await fetch_view(Adapter(refuse={"stackTrace"}), {}, thread_id=1, frame_id=None, max_frames=20,
                             reason="step", limits=Limits(), named=named)
        assert coded(refused.value).code == code and "cannot read thread 1" in refused.value.message, refused.value


async def test_an_exception_the_adapter_will_not_describe_leaves_the_rest_of_the_stop() -> None:
    """Delve at a Go deadlock: "Unable to get exception info: no runtime error found" (tests/e2e has it for real)."""
    view, _ = await fetch_view(Adapter(refuse={"exceptionInfo"}), {"supportsExceptionInfoRequest": True}, thread_id=1,
                               frame_id=None, max_frames=20, reason="exception", limits=Limits())
    assert view.exception is not None and view.exception.unreadable == "unknown id None", view.exception
    assert [f.id for f in view.frames] == [FRAME] and shown(view) == {LOCALS: [f"v{LOCALS}"], GLOBALS: [f"v{GLOBALS}"]}
