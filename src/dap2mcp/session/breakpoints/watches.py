"""Watches (data breakpoints): resolved in a paused frame through `dataBreakpointInfo`, and looked at again
at every stop, since adapters say little about them: which one stopped the program (lldb-dap names none),
its old and new value (no adapter gives them), whether the frame of a watched local has returned (lldb
keeps watching the stack slot), and, after a `restart`, what they name in the new run (addresses change).

The registry owns the watches (a kind of breakpoint); this module does what needs the paused program."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...adapters.base import OWN_PRINT
from ...dap import bodies
from ...dap.errors import AdapterRefused
from ...errors import DebugError, ErrorCode
from ..memory.disassembly import instructions
from ..models import Context, WatchHit, WatchReport
from .breakpoint import Breakpoint
from .watch_frames import STACK_LIMIT, frame_of

if TYPE_CHECKING:
    from ..session import DebugSession

_ROOT = re.compile(r"^\s*[*&(]*\s*([A-Za-z_]\w*)")
_LOCAL_SCOPES = ("local", "argument", "param")


async def resolve(session: DebugSession, bp: Breakpoint, *, frame: int, thread: int | None) -> None:
    """Find what `bp.watch` names in `frame`, for the adapter (`data_id`), and remember its value and, for a
    local, its frame. Refused with the adapter's reason where it cannot be watched."""
    profile, expression = session.profile, bp.watch or ""
    placed = await _by_address(session, expression, frame) if session.recording is not None else None
    try:
        info = await session.request("dataBreakpointInfo", {
            "name": placed[0] if placed else profile.watches.watch_name.format(expression), "frameId": frame})
    except AdapterRefused as exc:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot watch {expression!r}: {exc.message}") from None
    if not info.get("dataId"):
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot watch {expression!r} here ({info.get('description')}): "
                         "watch a variable, a field or an array element that the paused frame can name")
    if bp.access not in (info.get("accessTypes") or [bp.access]):
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{profile.name} cannot watch {expression!r} for {bp.access} "
                         f"access; it can for {', '.join(info.get('accessTypes') or [])}")
    bp.data_id = str(info["dataId"])
    bp.watched_as = placed[1] if placed else None
    bp.value = await _value(session, bp.watched_as or expression, frame)
    bp.frame = None if placed else await _owner(session, expression, frame, thread)


async def _by_address(session: DebugSession, expression: str, frame: int) -> tuple[str, str] | None:
    """Where the program is recorded and the profile watches by address (`ReverseRules.watch_by_address`): the
    place `expression` names, as the adapter is given it (`*(long*)0x…`, an integer of its size: cdt-gdb-adapter
    passes it to gdb unquoted) and as its value is read (`*(int * *)0x…`, its own type); None where it has none."""
    rules = session.profile.reverse
    if rules.watch_by_address is None or session.profile.console.address_of is None:
        return None
    address = await _value(session, session.profile.console.address_of.format(expression), frame)
    size = await _value(session, f"sizeof({expression})", frame)
    typed = (await session.request("evaluate", {"expression": expression, "frameId": frame, "context": "repl"})
             ).get("type") if address else None
    found = re.match(r"\(?[^)]*\)?\s*(0x[0-9a-fA-F]+)", address or "")
    ctype = dict(rules.sized_types).get(int(size)) if size and size.isdigit() else None
    if found is None or ctype is None or not typed:
        return None
    return rules.watch_by_address.format(type=ctype, address=found.group(1)), f"*({typed} *){found.group(1)}"


async def after_stop(session: DebugSession, thread: int | None, reason: str, description: str | None,
                     top: int | None) -> WatchReport:
    registry, report = session.breakpoints, WatchReport(session.stop_count)
    watches = [bp for bp in registry.watches() if bp.options.enabled]
    if not watches or thread is None or top is None:
        return report
    stack = await session.stack(thread, STACK_LIMIT) if any(bp.frame for bp in watches) else []
    changed = False
    for bp in watches:
        if bp.data_id is None:  # set before a restart, or given with `debug`: resolved anew in this run
            try:
                await resolve(session, bp, frame=top, thread=thread)
            except DebugError:
                continue
            report.notes.append(f"watch {bp.id} ({bp.watch}) now watches {bp.watch} in this run (value {bp.value})")
            changed = True
            continue
        frame = frame_of(bp, stack) if bp.frame else top
        if frame is None:
            function = bp.frame[0] if bp.frame else "its function"
            registry.take([bp.id])
            report.notes.append(f"watch {bp.id} ({bp.watch}) went away: the frame of {function} whose local it "
                                "watched has returned")
            changed = True
            continue
        old, new = bp.value, await _value(session, bp.watched_as or bp.watch or "", frame)
        bp.value = new
        if new != old or bp.access != "write":
            report.hits.append(WatchHit(id=bp.id, expression=bp.watch or "", old=old, new=new))
    if changed:
        await registry.sync_watches(session.tolerant_request)
    stopped_by_watch = session.profile.watches.watch_stop.search(f"{reason} {description or ''}") is not None
    paused_at = await _top(session, thread) if stopped_by_watch else None
    stoppers = await _stoppers(session, watches, paused_at) if stopped_by_watch else set()
    if stoppers is None:  # the adapter did not say which: a watch that changed did it, else any read watch may have
        stoppers = {hit.id for hit in report.hits if hit.old != hit.new} or {hit.id for hit in report.hits}
    report.hits = [hit for hit in report.hits if hit.id in stoppers or hit.old != hit.new]
    for hit in report.hits:
        if hit.id in stoppers:
            registry.get(hit.id).hit_count += 1
        else:
            hit.stoppedHere = False  # changed meanwhile (a write a read watch let pass): shown all the same
    if paused_at is not None:
        report.wrote_at = await _line_before(session, paused_at)
    return report


async def _top(session: DebugSession, thread: int) -> bodies.StackFrame | None:
    """The stopped thread's innermost frame, where the instruction that stopped it is."""
    try:
        return (await session.stack(thread))[0]
    except (AdapterRefused, DebugError, IndexError):
        return None


async def _said(session: DebugSession, command: str, frame: bodies.StackFrame) -> str:
    """What a debugger command run in `frame` printed ("" where it could not run)."""
    try:
        body, _ = await session.own.evaluate(command, frame.id, "repl")
    except DebugError:
        return ""
    return str(body.get("result") or "")


async def _stoppers(session: DebugSession, watches: list[Breakpoint], top: bodies.StackFrame | None) -> set[int] | None:
    """The ids of the watches that stopped the program, from what the debugger says of it; None where it says
    nothing: a read watch's stop is then told from another watch's only by the values."""
    profile = session.profile
    if profile.watches.watch_stopper_output is not None:
        said = session.adapter_output.peek_new(session.limits.adapter_output_chars).text
        numbers = {int(found) for found in profile.watches.watch_stopper_output.findall(said)}
        return {bp.id for bp in watches if bp.adapter_id in numbers} or None
    if profile.watches.watch_stopper_command is not None and top is not None:
        found = re.search(rf"^{OWN_PRINT}watch (0x[0-9a-fA-F]+)$",
                          await _said(session, profile.watches.watch_stopper_command, top), re.MULTILINE)
        address = int(found.group(1), 16) if found else None
        return {bp.id for bp in watches if address is not None and _address(bp) == address} or None
    return None


def _address(bp: Breakpoint) -> int | None:
    """Where a watch is, from the adapter's id of its data: lldb-dap's `<hex address>/<size>`."""
    found = re.match(r"^(?:0x)?([0-9a-fA-F]+)/\d+$", bp.data_id or "")
    return int(found.group(1), 16) if found else None


async def _line_before(session: DebugSession, top: bodies.StackFrame) -> int | None:
    """The source line of the instruction before the paused one in frame `top`: the write that stopped the
    program."""
    if (command := session.profile.watches.line_before_command) is not None:
        found = re.search(rf"^{OWN_PRINT}line (\d+)$", await _said(session, command, top), re.MULTILINE)
        return int(found.group(1)) if found and found.group(1) != "0" else None
    if not top.instructionPointerReference:
        return None
    # an adapter may name the line only where it changes (Delve): then the nearest line named before is the write's
    for back in (1, LINE_SEARCH):
        try:
            before = await instructions(session, top.instructionPointerReference, -back, back)
        except (AdapterRefused, DebugError):
            return None
        if (line := next((i["line"] for i in reversed(before) if isinstance(i.get("line"), int)), None)) is not None:
            return line
    return None


LINE_SEARCH = 8
"""How many instructions before the paused one are searched for the line they belong to, where the one just
before names none."""


def apply(report: WatchReport, ctx: Context) -> None:
    if report.hits:
        ctx.watches = report.hits
        if any(hit.stoppedHere is not False for hit in report.hits):
            ctx.reason = "data breakpoint"
            ctx.breakpointIds = [hit.id for hit in report.hits if hit.stoppedHere is not False]
            ctx.description = "; ".join(f"watch {hit.id}: {hit.expression} {hit.old} -> {hit.new}"
                                        for hit in report.hits if hit.stoppedHere is not False)
            if report.wrote_at is not None and ctx.location is not None and ctx.location.line != report.wrote_at:
                ctx.description += f" (written by line {report.wrote_at}; paused just after it, at line " \
                                   f"{ctx.location.line})"
                ctx.location.line = report.wrote_at
    if report.notes:
        ctx.breakpointNotes = report.notes


async def _value(session: DebugSession, expression: str, frame: int) -> str | None:
    try:
        body = await session.request("evaluate", {"expression": expression, "frameId": frame,
                                                  "context": session.profile.evaluation.evaluate_context})
    except AdapterRefused:
        return None
    result = body.get("result")
    return None if result in session.profile.evaluation.failed_evaluations else result


async def _owner(session: DebugSession, expression: str, frame: int, thread: int | None) -> tuple[str, int] | None:
    """(function, place from the stack's bottom) of `frame`, if `expression` starts with one of its locals."""
    root = _ROOT.match(expression)
    if root is None or thread is None:
        return None
    scopes = (await session.request("scopes", {"frameId": frame})).scopes
    names: set[str] = set()
    for scope in scopes:
        if scope.name.lower().startswith(_LOCAL_SCOPES) and scope.variablesReference:
            listed = await session.request("variables", {"variablesReference": scope.variablesReference})
            names |= {v.name for v in listed.variables}
    if root.group(1) not in names:
        return None
    stack = await session.stack(thread, STACK_LIMIT)
    known = session.frames.get(frame)  # by place: cdt-gdb-adapter numbers the frames anew at each stackTrace
    index = known[1] if known is not None else 0
    return (stack[index].name, len(stack) - index) if index < len(stack) else None
