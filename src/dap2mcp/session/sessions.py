"""The sessions a debugger holds at once, each under the handle an agent names it by (`sessionId`).

One of them is current: the one a call without `sessionId` acts on, which is the one last started or
whose stop was last returned. A handle is never reused, so an id the agent kept from an ended session
gets a clear word about that session, never another session's answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import DebugError, ErrorCode
from .program.children import program
from .session import DebugSession

MAX_SESSIONS = 8
"""Programs `debug` runs at once: each holds an adapter, a program and their memory."""
MAX_ENDED = 16
"""Programs that ended kept for `restart`, `output` and their snapshots; past this, the oldest are forgotten."""


class Sessions:
    def __init__(self) -> None:
        self._open: dict[str, DebugSession] = {}  # in the order they started
        self._current: str | None = None
        self._ended: dict[str, str] = {}
        """Of each session that ended, how (for a clear word when an agent names it again)."""
        self._shown: dict[str, int] = {}
        """Per session, the stop last shown to the agent: a later one is a stop a call of its program returns."""
        self._started = 0
        self._program_ids: dict[str, str] = {}
        """A launcher's handle → its program's (js-debug's, see `AdapterProfile.program.program_in_child`): after a
        `restart` the program's new session answers to the handle the agent holds."""

    def __iter__(self) -> Iterator[DebugSession]:
        return iter(list(self._open.values()))

    def __len__(self) -> int:
        return len(self._open)

    @property
    def current(self) -> DebugSession | None:
        return self._open.get(self._current) if self._current is not None else None

    def check_room(self) -> None:
        """Refused when `MAX_SESSIONS` programs started by `debug` run already; those that ended do not count (a
        child process's session counts towards its own cap, `children.MAX_CHILDREN`)."""
        running = [s for s in self._open.values() if s.parent_id is None and s.state != "terminated"]
        if len(running) >= MAX_SESSIONS:
            raise DebugError(ErrorCode.SESSION_LIMIT, f"{len(running)} sessions run already, the most at once: "
                             f"{self.named(running)}; `stop` one (sessionId) or all (all: true) first")

    def forget_ended(self) -> list[DebugSession]:
        """The oldest programs that ended past `MAX_ENDED` (with their child processes' sessions), forgotten: an
        agent that debugs program after program would otherwise list ever more of them. Returned to be closed."""
        ended = [s for s in self._open.values() if s.parent_id is None and s.state == "terminated"
                 and all(child.state == "terminated" for child in self.below(s))]
        forgotten = []
        for root in ended[:max(0, len(ended) - MAX_ENDED + 1)]:  # room for the one starting
            for session in [root, *self.below(root)]:
                self.remove(session, "it ended, and was forgotten as more programs were debugged")
                forgotten.append(session)
        return forgotten

    def new_id(self, *, child: bool = False, program_of: DebugSession | None = None) -> str:
        """A handle for the next session (see `check_room`); for the program `program_of` launched, the handle
        its program had before a `restart`."""
        if program_of is not None and (kept := self._program_ids.get(program_of.id)) is not None \
                and kept not in self._open:
            return kept
        if not child:
            self.check_room()
        self._started += 1
        if program_of is not None:
            self._program_ids[program_of.id] = f"s{self._started}"
        return f"s{self._started}"

    def find(self, session_id: str | None) -> DebugSession | None:
        """The session `session_id` names (None: the current one), if there is one: for what is shown
        without a session too (a resource's fingerprint)."""
        return self.current if session_id is None else self._open.get(session_id)

    def pick(self, session_id: str | None) -> DebugSession:
        """The session `session_id` names, or the current one."""
        if session_id is None:
            if (session := self.current) is not None:
                return session
            if self._open:
                raise DebugError(ErrorCode.NO_SESSION, "no current session (it ended); give sessionId, one of "
                                 f"{self.named()}")
            raise DebugError(ErrorCode.NO_SESSION, "no debug session; start one with `debug`")
        if (session := self._open.get(session_id)) is not None:
            return session
        running = f"; running: {self.named()}" if self._open else "; none runs: start one with `debug`"
        if session_id in self._ended:
            raise DebugError(ErrorCode.NO_SESSION, f"session {session_id} has ended ({self._ended[session_id]}){running}")
        raise DebugError(ErrorCode.NO_SESSION, f"no session {session_id!r}{running}")

    def holds(self, session: DebugSession) -> bool:
        """Whether `session` is still the one its handle names (not ended, not replaced by a `restart`)."""
        return self._open.get(session.id) is session

    def add(self, session: DebugSession, *, current: bool = True) -> None:
        """`session` under its handle, current (a child process's is not, until its stop is returned); a
        `restart`'s new session replaces the old under the same one."""
        self._open[session.id] = session
        self._ended.pop(session.id, None)
        if current:
            self._current = session.id

    def tree(self, session: DebugSession) -> list[DebugSession]:
        """The sessions of `session`'s program: its first process's session and every child's below it."""
        root = session
        while root.parent_id is not None and root.parent_id in self._open:
            root = self._open[root.parent_id]
        return [root, *self.below(root)]

    def below(self, session: DebugSession) -> list[DebugSession]:
        """The sessions of `session`'s child processes, their children's, and so on."""
        found = [session]
        for candidate in self._open.values():  # in the order they started: a parent before its children
            if candidate.parent_id is not None and any(candidate.parent_id == s.id for s in found):
                found.append(candidate)
        return found[1:]

    def make_current(self, session: DebugSession) -> None:
        if self.holds(session):
            self._current = session.id

    def remove(self, session: DebugSession, how: str) -> bool:
        """Forget `session` (if its handle still names it). A current child process's leaves its parent current,
        the program going on there (as when the child ends by itself); any other current one leaves no session
        current, so that a call without `sessionId` is not taken for another program's."""
        if not self.holds(session):
            return False
        del self._open[session.id]
        self._ended[session.id] = how
        self._program_ids.pop(session.id, None)
        self._shown.pop(session.id, None)
        if self._current == session.id:
            parent = session.parent_id
            self._current = parent if parent is not None and parent in self._open else None
        return True

    # -- stops shown to the agent ---------------------------------------------------------

    def shown(self, session: DebugSession) -> bool:
        """The agent has been shown `session`'s current stop: no call of its program returns it again. Whether
        it is the first of the session's stops shown."""
        first = session.id not in self._shown
        self._shown[session.id] = session.stop_count
        return first

    def restarted(self, session: DebugSession) -> None:
        """`session`'s handle runs a new program, whose stops count from 0 again."""
        self._shown.pop(session.id, None)

    def stop_unshown(self, session: DebugSession) -> bool:
        """Whether `session` is paused at a stop the agent has not been shown."""
        return session.state == "paused" and session.stop_count > self._shown.get(session.id, 0)

    def others_running(self, session: DebugSession) -> list[DebugSession]:
        """The other sessions of `session`'s program still running (its parent's, its children's): where a change to
        a breakpoint, which is the program's, goes too."""
        return [s for s in self.tree(session) if s is not session and s.state != "terminated"] \
            if self.holds(session) else []

    def files_from(self, session_id: str | None) -> str | None:
        """Below this directory, a session's results name files relative to it (`Target.files_from`)."""
        session = self.find(session_id)
        return session.target.files_from if session is not None else None

    def unshown_stop(self, session: DebugSession) -> DebugSession | None:
        """Another session of `session`'s program, paused at a stop the agent has not been shown."""
        if not self.holds(session):
            return None
        for other in self.tree(session):
            if other is not session and self.stop_unshown(other):
                return other
        return None

    def named(self, sessions: list[DebugSession] | None = None) -> str:
        """The sessions (default: all held), for a message: `s1 (app.py, paused), s2 (server, running)`."""
        return ", ".join(f"{s.id} ({program(s)}, {s.state})" for s in (self._open.values() if sessions is None
                                                                        else sessions))

    def listing(self) -> list[dict[str, Any]]:
        """`info {type: "sessions"}`: what each session is and where it is."""
        return [_listed(session, session.id == self._current) for session in self._open.values()]


def _listed(session: DebugSession, current: bool) -> dict[str, Any]:
    info = session.stop_info
    entry: dict[str, Any] = {
        "sessionId": session.id, "parentId": session.parent_id, "program": program(session),
        "pid": session.run.process.get("systemProcessId") or session.target.process_id,
        "adapter": session.profile.name, "state": session.state, "current": current or None,
    }
    view = session.recorder.last_view
    if session.state == "paused" and view is not None and (frame := view.focus) is not None:
        entry["location"] = {"file": frame.file, "line": frame.line, "function": frame.function}
        entry["reason"] = info.reason if info is not None else None
    if session.state == "terminated":
        entry["exitCode"] = session.exit_code
    return {k: v for k, v in entry.items() if v is not None}
