"""Going back in time: recording the program at a stop, and what each stop says of the recording (in the recorded
past or not; the recording stopped). The moves themselves are the session's (`DebugSession.move_back`).

Every command here is dap2mcp's own, sent as an `evaluate` in the `repl` context, not through the agent's
read-only `>` commands: the profile's `ReverseRules` say which (gdb's `record full`, rdbg's recorder).
"""

from __future__ import annotations

from typing import Any, Literal

from ...dap import AdapterRefused
from ...errors import DebugError, ErrorCode
from ..breakpoints import watches
from ..models import Context
from ..session import DebugSession
from . import paused

NOTHING_RECORDED = ("nothing is recorded to go back through: `record {on: true}` at a stop (or `debug {record: "
                    "true}`), then move forward; going back replays what was recorded since")


def refuse(session: DebugSession, how: Literal["back", "backOut", "continue"]) -> None:
    """NOT_SUPPORTED where the adapter cannot go back this way (with why, and which adapter can), and where
    nothing is recorded yet."""
    rules = session.profile.reverse
    if rules.record_on is None:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{session.profile.name}: {rules.cannot}")
    if how != "back" and (rules.reverse_continue if how == "continue" else rules.back_out) is None:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{session.profile.name}: {rules.cannot_continue}")
    if session.recording is None:
        raise DebugError(ErrorCode.NOT_SUPPORTED, NOTHING_RECORDED)


async def _say(session: DebugSession, command: str) -> str:
    """What the debugger answers `command` (an `evaluate` in the `repl` context): its console text where it
    prints there (cdt-gdb-adapter), else the evaluation's result."""
    frame = await paused.focused_frame_id(session)
    if session.profile.console.console_prints:
        return (await session.own.console_text(command, frame, 4000)).text
    body: dict[str, Any] = await session.request("evaluate", {"expression": command, "frameId": frame,
                                                               "context": "repl"})
    return str(body.get("result") or "")


async def record(session: DebugSession, on: bool, limit: int | None) -> dict[str, Any]:
    """Start (or stop) recording at this stop; the answer says whether it records and how much it may hold."""
    rules = session.profile.reverse
    if rules.record_on is None:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{session.profile.name}: {rules.cannot}")
    if limit is not None and rules.record_limit is None:
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"maxInstructions: {session.profile.name} records without a limit "
                         "to set")
    session.require_paused()
    if not on:
        was = session.recording is not None
        if was and rules.record_off is not None:
            await _say(session, rules.record_off)
            for command in rules.record_teardown:
                await _say(session, command)
        session.recording, session.replaying = None, False
        if was and rules.watch_by_address is not None:  # watched by their expressions again, in hardware
            await _watches_again(session)
        return {"recording": False}
    try:
        if limit is not None and rules.record_limit is not None:
            await _say(session, rules.record_limit.format(limit=limit))
        if session.recording is None:
            await _say(session, rules.record_on)
            for command in rules.record_setup:
                await _say(session, command)
    except AdapterRefused as exc:
        raise DebugError(ErrorCode.ADAPTER_ERROR, f"{session.profile.name} did not start recording: "
                         f"{exc.message}") from exc
    first = session.recording is None
    held = limit if limit is not None else session.recording or rules.default_limit or 0
    session.recording = held
    if first and rules.watch_by_address is not None:  # the watches set before: by address from now on
        await _watches_again(session)
    answer: dict[str, Any] = {"recording": True}
    if held:
        answer["maxInstructions"] = held
    return answer


async def _watches_again(session: DebugSession) -> None:
    """The watches already set, set again as recording starts (by their place's address,
    `ReverseRules.watch_by_address`, and as the recording checks them: gdb's software watchpoints, set after
    `record_setup`) or stops (by their expressions, as before)."""
    kept = [bp for bp in session.breakpoints.watches() if bp.data_id is not None]
    if not kept:
        return
    frame = await paused.focused_frame_id(session)
    thread = session.stop_info.thread_id if session.stop_info else None
    await session.tolerant_request("setDataBreakpoints", {"breakpoints": []})  # the hardware ones dropped first
    for bp in kept:
        bp.data_id = None
        try:
            await watches.resolve(session, bp, frame=frame, thread=thread)
        except DebugError:
            continue
    await session.breakpoints.sync_watches(session.tolerant_request)


def written_backwards(ctx: Context) -> None:
    """A watch's stop reached going back is before the write: what the line wrote goes from the value now (`new`,
    read before it) to the value at the stop it came from (`old`); said in that order."""
    for hit in ctx.watches or ():
        if hit.stoppedHere is not False:
            hit.old, hit.new = hit.new, hit.old
    if ctx.watches and ctx.description and ctx.reason == "data breakpoint":
        hit = ctx.watches[0]
        ctx.description = f"watch {hit.id}: {hit.expression} was written here, {hit.old} -> {hit.new} (the " \
                          "program is paused before the write; `step` makes it)"


async def mark(session: DebugSession, ctx: Context) -> None:
    """At a stop while recording: whether it is in the recorded past (`replay`), and a recording that stopped
    (an instruction the debugger cannot record) said in `description`."""
    rules = session.profile.reverse
    if session.recording is None or ctx.state != "paused":
        if ctx.state == "terminated":
            session.recording, session.replaying = None, False
        return
    said = (ctx.adapterOutput.text if ctx.adapterOutput else "") + (ctx.output.text if ctx.output else "")
    if rules.record_failed is not None and (failed := rules.record_failed.search(said)):
        what = "a system call it cannot record, so cannot undo: " if "syscall" in failed.group(0) else ""
        ctx.reason = "recording stopped"  # gdb's own reason for it is "0"
        ctx.description = f"the recording stopped here: {what}{failed.group(0)}; `step {{mode: \"back\"}}` and " \
                          "`continue {reverse: true}` go back through what was recorded before"
    if rules.replaying is not None and rules.replay_said is not None:
        try:
            status = await _say(session, rules.replaying)
        except (AdapterRefused, DebugError):
            status = ""
        session.replaying = bool(rules.replay_said.search(status))
    ctx.replay = True if session.replaying else None
    if rules.limit_passed is not None and rules.limit_passed.search(said):
        full = f"the recording passed its limit ({session.recording:,} instructions) on the way here: its oldest " \
               "part was dropped, so going back stops sooner (`record {maxInstructions}` holds more)"
        ctx.hint = f"{ctx.hint}; {full}" if ctx.hint else full
    if rules.history_end is not None and ctx.description is None and rules.history_end.search(said):
        ctx.description = (f"the start of the recording (what it holds: the last {session.recording:,} instructions "
                           "at most)" if session.replaying else
                           "the end of the recording: the program runs live from here, recorded on")
