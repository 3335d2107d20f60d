"""Where a program is in its run, and what goes with where it is: the stop, how many stops so far, the frames
valid at the current stop, how it ended. This module alone writes them; the session tells it what the
adapter said (its events) and what an agent asked (a move, a pause, the end).

    starting ─▶ running ⇄ paused ─▶ terminated
                                 (from any state)

Nothing here sends a request or waits on the adapter: each adapter's difference that the run state
decides (a stray stop to step past, a pause's stop under another name) is a question answered from
the state alone, so a scripted transcript of events drives it as the adapter would.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
from collections.abc import Callable, Iterable
from typing import Any

from ...dap import bodies
from ...processes import killed_by
from ..models import State, StopInfo

STEPS = ("next", "stepIn", "stepOut", "stepBack")


class FrameTable:
    """Frame ids handed out since the last stop, with each one's thread and place in its stack: a `frameId`
    alone names its thread, and cdt-gdb-adapter numbers the frames anew at every stackTrace, so an id of an
    earlier answer is found by its place. Written by the run state alone, which empties it at every stop."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[int, int]] = {}

    def __contains__(self, frame_id: object) -> bool:
        return frame_id in self._known

    def get(self, frame_id: int) -> tuple[int, int] | None:
        """The thread and the place in its stack of a frame handed out at this stop."""
        return self._known.get(frame_id)

    def _note(self, thread: int, frames: Iterable[tuple[int, int]]) -> None:
        self._known.update((frame_id, (thread, index)) for frame_id, index in frames)

    def top_of(self, thread: int) -> int | None:
        """The id handed out for `thread`'s innermost frame, if one was."""
        return next((frame for frame, (owner, place) in self._known.items() if owner == thread and place == 0), None)

    def _clear(self) -> None:
        self._known.clear()


class Run:
    def __init__(self, *, stray_step_stops: bool = False) -> None:
        self._stray_step_stops = stray_step_stops
        """The adapter finishes a step cut short by a breakpoint at the next `continue` (lldb-dap)."""
        self._state: State = "starting"
        self._stop_info: StopInfo | None = None
        self._stop_count = 0
        self._frames = FrameTable()
        self._exit_code: int | None = None
        self._ended_by: str | None = None
        """The call that ended the program before it ended by itself (`stop`, a new `debug`)."""
        self._start_failure: str | None = None
        """Why a `restart` could not start the program; the session stays, ended, for the next `restart`."""
        self._signalled: int | None = None
        """The signal `stop` sent the program to end it (ending.py), by which its exit code is read."""
        self._process: dict[str, Any] = {}
        """The adapter's `process` event: the debuggee's name and system pid."""
        self._last_move = ""
        """The request that last let the program run (`continue`, `next`, ...)."""
        self._pausing = False
        """A `pause` was requested and its stop has not come yet."""
        self._paused_thread: int | None = None
        """The thread the last `pause` asked to stop."""
        self.on_change: Callable[[], None] = lambda: None
        """Told after every change (the session passes it on to whoever shows the state)."""
        self._changed = asyncio.Event()

    # -- what the run state holds: read by all, written here alone ------------------------------

    @property
    def state(self) -> State:
        return self._state

    @property
    def stop_info(self) -> StopInfo | None:
        return self._stop_info

    @property
    def stop_count(self) -> int:
        return self._stop_count

    @property
    def frames(self) -> FrameTable:
        return self._frames

    @property
    def exit_code(self) -> int | None:
        return self._exit_code

    @property
    def ended_by(self) -> str | None:
        return self._ended_by

    @property
    def start_failure(self) -> str | None:
        return self._start_failure

    @property
    def signalled(self) -> int | None:
        return self._signalled

    @property
    def process(self) -> dict[str, Any]:
        return self._process

    @property
    def last_move(self) -> str:
        return self._last_move

    @property
    def pausing(self) -> bool:
        return self._pausing

    @property
    def paused_thread(self) -> int | None:
        return self._paused_thread

    # -- what the agent's calls do ---------------------------------------------------------------

    def started(self) -> None:
        if self._state == "starting":
            self._state = "running"
            self.notify()

    def moving(self, command: str) -> int:
        """The program runs from now (`command` sent or about to be), so waiters see the next stop; returns the
        stop count to wait beyond."""
        since = self._stop_count
        self._state = "running"
        self._last_move = command
        self.notify()
        return since

    def move_refused(self, since: int) -> bool:
        """The adapter refused the move: the program is where it was, unless it stopped meanwhile."""
        if self._stop_count == since and self._state == "running":
            self._state = "paused"
            return True
        return False

    def continuing_past_step(self) -> None:
        """A `continue` gives up a step not yet landed (the program is already running)."""
        self._last_move = "continue"

    @property
    def stepping(self) -> bool:
        """The program last moved by a step (not yet ended by a stop, while it runs)."""
        return self._last_move in STEPS

    def pause_asked(self) -> None:
        self._pausing = True

    def pause_sent(self, thread: int) -> None:
        self._paused_thread = thread

    def pause_refused(self) -> None:
        self._pausing = False

    def ending(self, by: str) -> None:
        """A call (`stop`, a new `debug`) ends the program: calls still waiting say so, not its exit code."""
        if self._state != "terminated":
            self._ended_by = by
            self.notify()

    def could_not_start(self, reason: str) -> None:
        self._start_failure = reason

    def signalling(self, signum: int) -> None:
        self._signalled = signum

    # -- what the adapter says -------------------------------------------------------------------

    def stray_step(self, body: bodies.StoppedBody) -> bool:
        """A step stop nobody asked for: lldb-dap finishes a `next` that a breakpoint cut short at the next
        `continue`, and reports that as a step (True: the program should just go on). A pause's own stop is
        not one: lldb names it after a step still under way."""
        return self._stray_step_stops and body.reason == "step" and self._last_move == "continue" \
            and not self._pausing

    def take_pause(self) -> bool:
        """Whether the stop now being read is the one a `pause` asked for (then no longer awaited)."""
        pausing, self._pausing = self._pausing, False
        return pausing

    def stopped(self, info: StopInfo) -> None:
        self._stop_info = info
        self._state = "paused"
        self._stop_count += 1
        self._frames._clear()
        self.notify()

    def frames_handed_out(self, thread: int, frames: Iterable[tuple[int, int]]) -> None:
        """Frames of `thread` an answer hands out at this stop: (frame id, place in the stack) each, valid
        until the next stop."""
        self._frames._note(thread, frames)

    def continued(self, body: dict[str, Any]) -> None:
        if self._state == "paused":
            self._state = "running"
            self.notify()

    def exited(self, body: dict[str, Any]) -> None:
        """The adapter's exit code, read as a shell reports it."""
        code = body.get("exitCode")
        signum = self.last_signal()
        # lldb gives a program killed by a signal the signal's number as its status (11 for SIGSEGV), which
        # reads as exit(11): the last stop was that signal, so say it as a shell does, 128 + the number
        self._exit_code = killed_by(code) if signum is not None and signum[1] == code else code
        if self._signalled is not None and code in (-self._signalled, 256 - self._signalled):
            self._exit_code = killed_by(self._signalled)  # debugpy: the status as Python has it, or its byte
        self.notify()

    def exit_printed(self, code: int) -> None:
        """The exit code the adapter printed (gdb's "exited with code 01"), where it sends no `exited` event."""
        self._exit_code = code
        self.notify()

    def on_process(self, body: dict[str, Any]) -> None:
        self._process = dict(body)

    def ended(self) -> bool:
        """The program is gone; True if that is news."""
        if self._state == "terminated":
            return False
        self._state = "terminated"
        self.notify()
        return True

    def last_signal(self) -> tuple[str, int] | None:
        """The signal the program last stopped on (name and number), if its last stop was one."""
        info = self._stop_info
        found = re.match(r"signal (SIG[A-Z0-9]+)", info.description or "") if info is not None else None
        try:
            return (found.group(1), signal.Signals[found.group(1)].value) if found else None
        except KeyError:
            return None

    # -- waiting ----------------------------------------------------------------------------------

    def notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()
        self.on_change()

    async def changed(self, timeout: float) -> None:
        """Wait until anything about the run changes, at most `timeout` seconds."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)

    async def wait_for_stop(self, since: int, timeout: float) -> bool:
        """Wait until a stop after stop number `since`, or the end; False if `timeout` ran out."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self._stop_count <= since and self._state != "terminated":
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                return False
            await self.changed(remaining)
        return True
