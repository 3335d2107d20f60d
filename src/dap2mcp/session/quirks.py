"""Where an adapter's behaviour differs from what an agent should see, and fixing it needs session state.

The differences themselves are data on the profile (`stray_step_stops`, `entry`); this module holds
the little state that acting on them takes, so the session's state machine stays adapter-neutral.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .breakpoints import Breakpoint
    from .session import DebugSession

log = logging.getLogger(__name__)


class Quirks:
    def __init__(self, session: DebugSession) -> None:
        self._session = session
        self._entry: Breakpoint | None = None
        self._last_move = ""

    def moved(self, command: str) -> None:
        self._last_move = command

    def stray_step(self, body: dict[str, Any]) -> bool:
        """lldb-dap finishes a `next` that a breakpoint cut short at the next `continue`, and reports that as
        a step stop: nobody asked for it, so the program just goes on (True: ignore this stop)."""
        session = self._session
        if not (session.profile.stray_step_stops and body.get("reason") == "step" and self._last_move == "continue"):
            return False
        log.debug("continuing past a stray step stop")
        asyncio.ensure_future(session.tolerant_request("continue", {"threadId": body.get("threadId")}))
        return True

    def hold_at_entry(self) -> None:
        """stopOnEntry as a breakpoint on the program's own entry function, where the adapter's own entry
        stop would be in the loader or the runtime (once the adapter's capabilities are known)."""
        session = self._session
        entry = session.profile.entry(session.target) if session.target.stop_on_entry else None
        if entry:
            self._entry = session.register({"function": entry}, temporary=True)

    async def drop_entry(self) -> None:
        """Once the program has stopped on entry (or ended), its stand-in breakpoint goes."""
        session = self._session
        bp, self._entry = self._entry, None
        if bp is None:
            return
        info = session.stop_info
        if info is not None and session.stop_count == 1 and "breakpoint" in info.reason:
            info.reason = "entry"
        if session.breakpoints.discard(bp) and session.state != "terminated":
            await session.remove_breakpoints([bp])
