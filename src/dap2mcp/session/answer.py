"""A call's answer once the program stopped or ended: its context, with what the stop means for the program's
other sessions (the one whose stop is shown becomes current; a child's end hands the program back to its parent),
once the output the program wrote before it is in.
"""

from __future__ import annotations

from ..errors import DebugError, ErrorCode
from . import hints
from .models import Context, Output
from .program import testing
from .session import DebugSession
from .sessions import Sessions
from .stop import paused, reverse

TEST_END_CHARS = 4000
"""How much of the end of a test run's output is read for the runner's word that no test ran."""


async def result(sessions: Sessions, session: DebugSession, *, timed_out: bool, again: str | None = None,
                  look_for_children: bool = True) -> Context:
    """`look_for_children`: a scan of the process table (~2 ms), left out of each `step`."""
    _not_ended_by_another_call(session)
    await session.ended()  # an ending program's last output is still on its way
    # what the program wrote before it stopped may still be on its way (a flood is forwarded for seconds)
    complete, marked = await session.all_in.stopped(lambda: paused.focused_frame_id(session)) \
        if session.state == "paused" else (True, False)
    settled = session.output.size
    # the thread list costs a request per stop; `context` has it, execution results do not
    ctx = await paused.context(session, consume_output=True, with_threads=False)
    if ctx.state == "terminated":  # ended while the stop was being read (a stop with 30,000 globals takes a while)
        _not_ended_by_another_call(session)
    if not complete or (not marked and session.output.size != settled):  # more came: was it all in?
        ctx.output = (ctx.output or Output(text="")).model_copy(update={"incomplete": True})
    ctx.hint = hints.at_result(ctx, timed_out=timed_out, again=again)
    await reverse.mark(session, ctx)
    ctx.breakpointNotes = [*(ctx.breakpointNotes or []), *session.breakpoints.take_later_notes()] or None
    if ctx.state == "terminated":
        ran = testing.at_end(session.target, session.profile, ctx.exitCode, session.output.read(session.output.size - TEST_END_CHARS, TEST_END_CHARS).text)
        coming = hints.EXIT_COMING if ctx.exitCode is None and session.exits.coming and session.parent_id is None \
            else None
        ctx.hint = "; ".join(filter(None, (ctx.hint, ran, coming))) or None
    follows = session.profile.program.follows_children and session.target.children  # its children are sessions
    if look_for_children and not follows and ctx.state != "terminated" \
            and (found := session.processes.new_children()):
        ctx.hint = "; ".join(filter(None, (ctx.hint, hints.children(found))))
    if ctx.state == "paused":  # the session whose stop was last returned is the one a next call acts on
        sessions.make_current(session)
        if sessions.shown(session) and session.parent_id is not None:  # a child's first stop shown
            ctx.breakpointNotes = [*(ctx.breakpointNotes or []), *session.breakpoints.notes(edited=True)] or None
    elif ctx.state == "terminated" and session.parent_id is not None and session.launcher is None \
            and sessions.holds(parent := sessions.pick(session.parent_id)):
        sessions.make_current(parent)  # not left without one: the program goes on in its parent
        ended = hints.child_ended(session.id, parent.id, parent.state, exit_known=ctx.exitCode is not None,
                                  exit_coming=session.exits.coming,
                                  reloader=session.profile.reloader(session.target, ctx.exitCode))
        if sessions.stop_unshown(parent):
            return await _parent_stop(sessions, parent, session, ctx, ended)
        ctx.hint = "; ".join(filter(None, (ctx.hint, ended)))
    return ctx

def elsewhere(ctx: Context, asked: DebugSession) -> Context:
    """An answer with another session's stop than the one the call was for: the agent is told that the current
    session changed with it (its next call without sessionId acts on that one)."""
    if ctx.state == "paused" and ctx.sessionId != asked.id:
        said = hints.current_changed(str(ctx.sessionId), asked.id, asked.state)
        ctx.hint = "; ".join(filter(None, (said, ctx.hint)))
    return ctx

async def _parent_stop(sessions: Sessions, parent: DebugSession, child: DebugSession, ended: Context,
                   said: str) -> Context:
    """A child's end met its parent paused at a stop the agent has not seen (the last pool worker ended
    once the parent was at a breakpoint past the pool): that stop is the answer, the child's end a hint."""
    ctx = await result(sessions, parent, timed_out=False, look_for_children=False)
    code = f" with exit code {ended.exitCode}" if ended.exitCode is not None else ""
    note = f"the child process of session {child.id} ended{code} meanwhile"
    if ended.exitCode is None:
        note = said.split(";", 1)[0]
    ctx.hint = "; ".join(filter(None, (note, ctx.hint)))
    return ctx


def _not_ended_by_another_call(session: DebugSession) -> None:
    """A program another call ended would read as ending by itself, with the kill's exit code for a crash."""
    if session.ended_by is not None:
        raise DebugError(ErrorCode.TERMINATED, f"another call ({session.ended_by}) ended the session while this "
                         "call waited on it, before the program was reported to have exited by itself")
