"""Whether a watched local's frame is still there: lldb keeps watching a stack slot after the frame whose local it
was has returned, and stops when another call (or the C library's exit handlers) writes there. Kept apart from
watches.py, which reads the paused program, so that a stop can be judged before it is taken."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...adapters.base import AdapterProfile
from ...dap import bodies
from .breakpoint import Breakpoint

if TYPE_CHECKING:
    from .registry import BreakpointRegistry

STACK_LIMIT = 1000
"""Frames read to place a watched local's frame; a deeper stack counts from this far down."""


def may_have_outlived(profile: AdapterProfile, registry: BreakpointRegistry, body: bodies.StoppedBody) -> bool:
    """Whether a stop may be a watch's on a returned frame's stack slot: a watch's stop, with a watch on a local."""
    stopped = profile.watches.watch_stop.search(f"{body.reason} {body.description or ''}")
    return bool(stopped and body.threadId is not None
                and any(bp.frame and bp.options.enabled and bp.data_id for bp in registry.watches()))


def outlived(registry: BreakpointRegistry, stack: list[bodies.StackFrame]) -> bool:
    """At a watch's stop (`stack`: the stopped thread's frames): take out the watches whose local's frame has
    returned, and say whether they were all the watches there were, so that the stop was theirs and is no stop
    of the program's; the next answer says they went (`BreakpointRegistry.later_notes`). The caller re-sends the
    watches."""
    gone = [bp for bp in registry.watches()
            if bp.frame and bp.options.enabled and bp.data_id and frame_of(bp, stack) is None]
    if not gone:
        return False
    registry.take([bp.id for bp in gone])
    registry.later_notes += [f"watch {bp.id} ({bp.watch}) went away: the frame of {bp.frame[0] if bp.frame else ''} "
                             "whose local it watched returned, before the debugger stopped on the slot's reuse"
                             for bp in gone]
    return not any(bp.options.enabled and bp.data_id for bp in registry.watches())


def frame_of(bp: Breakpoint, stack: list[bodies.StackFrame]) -> int | None:
    """The id, at this stop, of the frame whose local `bp` watches; None if that frame has returned."""
    assert bp.frame is not None
    function, depth = bp.frame
    index = len(stack) - depth
    if 0 <= index < len(stack) and stack[index].name == function:
        return stack[index].id
    return None


