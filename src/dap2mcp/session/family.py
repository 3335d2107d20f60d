"""A program's family of sessions: its child processes made sessions as their adapter announces them, and
the wait for a stop anywhere among them.

A stop in a child is the answer of whichever call waits on any session of the program (a pool's worker
stops while the agent waits on the parent's `continue`), so a wait watches its own session and, at once,
every stop in the family that the agent has not been shown (`Sessions.unshown_stop`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from ..errors import Failure
from .program import children
from .session import DebugSession
from .sessions import Sessions

log = logging.getLogger(__name__)


class Family:
    def __init__(self, sessions: Sessions, wire: Callable[[DebugSession], None], changed: Callable[[], None]) -> None:
        """`wire`: connects a new session to the debugger (see `Debugger._wire`); `changed`: a session was
        added or forgotten."""
        self._sessions = sessions
        self._wire = wire
        self._changed = changed
        self._adopting: set[asyncio.Task[None]] = set()
        """Child sessions being started."""
        self._closing = False
        self._stirred: asyncio.Future[None] | None = None
        """Done when something changed in any session: a wait for a stop anywhere in a family looks again."""

    def stir(self) -> None:
        """Something changed in some session: every wait for a stop in a family looks again."""
        if self._stirred is not None and not self._stirred.done():
            self._stirred.set_result(None)

    def _stir_awaited(self) -> asyncio.Future[None]:
        """Done at the next `stir` (shielded: a wait given up leaves it to the other waits)."""
        if self._stirred is None or self._stirred.done():
            self._stirred = asyncio.get_running_loop().create_future()
        return asyncio.shield(self._stirred)

    async def close(self) -> None:
        """No child is started from now on, and those being started are given up (their connections closed)."""
        self._closing = True
        for task in list(self._adopting):
            task.cancel()
        await asyncio.gather(*self._adopting, return_exceptions=True)

    # -- child processes ---------------------------------------------------------------------

    def announced(self, parent: DebugSession, arguments: dict[str, Any]) -> None:
        """A `startDebugging` from `parent`'s adapter, answered already: the child is started meanwhile."""
        if self._closing:
            return
        task = asyncio.ensure_future(self._adopt(parent, arguments))
        self._adopting.add(task)
        task.add_done_callback(self._adopting.discard)

    async def _adopt(self, parent: DebugSession, arguments: dict[str, Any]) -> None:
        """A child process the adapter announced, started as a session beside its parent's, with its
        breakpoints; or connected to and let go, to run undebugged (see children.py)."""
        reach = children.plan(parent, arguments)
        if reach is None:
            log.warning("a child process of session %s names no address to debug it at", parent.id)
            return
        sessions = self._sessions
        root = sessions.tree(parent)[0] if sessions.holds(parent) else parent
        await asyncio.to_thread(parent.profile.before_child, root.link.started_processes)
        # read after the wait: children that asked at the same moment were added meanwhile, and count
        tree = sessions.tree(parent) if sessions.holds(parent) else []
        forgotten = self._forget_ended(tree[1:])
        running = [s for s in tree[1:] if s.state != "terminated"]
        debugged = bool(tree) and (children.is_program(parent) or parent.target.children
                                   and len(running) < children.MAX_CHILDREN)
        program_of = parent if children.is_program(parent) else None  # its handle kept across a `restart`
        child_id = sessions.new_id(child=True, program_of=program_of) if debugged else f"{parent.id}-free"
        child = children.session(parent, reach, child_id, debugged=debugged)
        if debugged:
            self._wire(child)
            sessions.add(child, current=False)
        if debugged or forgotten:
            self._changed()
        for ended in forgotten:
            await ended.close()
        try:
            await child.start()
        except BaseException as exc:  # a failure, or the server closing meanwhile: its connection goes either way
            why = exc.message if isinstance(exc, Failure) else "the server closed"
            log.warning("the child process session %s could not start: %s", child.id, why)
            sessions.remove(child, f"it could not start: {why}")
            await child.close()
            if not isinstance(exc, Failure):
                raise
            return
        if not debugged:  # connected and configured: it runs on, undebugged
            await child.close()
        else:
            children.program(child)  # read while the child lives: one that ends at once is named by it still
        self._changed()
        self.stir()

    def _forget_ended(self, below: list[DebugSession]) -> list[DebugSession]:
        """The oldest ended child sessions of a program past `MAX_CHILDREN`, forgotten (those with none of their
        own left below them): a program that starts children all its life (a test runner, a reloader) would
        list ever more of them."""
        ended = [s for s in below if s.state == "terminated" and not self._sessions.below(s)]
        forgotten = ended[:max(0, len(ended) - children.MAX_CHILDREN + 1)]
        for session in forgotten:
            self._sessions.remove(session, "it ended, and was forgotten as its program started more children")
        return forgotten

    async def program_of(self, launcher: DebugSession, within: float) -> DebugSession | None:
        """The session of the program `launcher` started (`AdapterProfile.program.program_in_child`), waiting up to `within`
        seconds for its adapter to announce it and for it to start; None where there is none (yet), or where the
        program ended."""
        deadline = asyncio.get_running_loop().time() + within
        while True:
            found = next((s for s in self._sessions.below(launcher) if s.launcher is launcher), None)
            left = deadline - asyncio.get_running_loop().time()
            if found is not None and found.state != "starting" or left <= 0 or launcher.state == "terminated":
                return found
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stir_awaited(), left)

    # -- waiting for a stop anywhere in a program's processes ---------------------------------

    async def wait(self, session: DebugSession, since: int, timeout: float) -> tuple[DebugSession, bool]:
        """`session.wait_for_stop`, or a stop of another session of its program (a child process at a
        breakpoint) not yet shown, whichever comes first: the session that stopped, and whether one did."""
        if (other := self._sessions.unshown_stop(session)) is not None:
            return other, True
        own = asyncio.ensure_future(session.wait_for_stop(since, timeout))
        elsewhere = asyncio.ensure_future(self._stop_elsewhere(session))
        try:
            await asyncio.wait({own, elsewhere}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (own, elsewhere):
                task.cancel()
            await asyncio.gather(own, elsewhere, return_exceptions=True)
        if own.done() and not own.cancelled() and own.exception() is None and (own.result() or not elsewhere.done()):
            return session, own.result()
        if elsewhere.done() and not elsewhere.cancelled() and elsewhere.exception() is None:
            return elsewhere.result(), True
        return session, own.result()

    async def _stop_elsewhere(self, session: DebugSession) -> DebugSession:
        while (other := self._sessions.unshown_stop(session)) is None:
            await self._stir_awaited()
        return other
