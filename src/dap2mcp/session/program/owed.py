"""An answer the adapter still owes past its timeout. While it is owed, the calls that would only queue
behind it are refused at once, saying why, instead of each waiting out a timeout of its own: an agent's
evaluation stuck in a native call holds the stopped thread (debugpy), and a request lldb-dap cannot
finish holds every request after it (it answers one at a time)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from ...dap.errors import AdapterTimedOut


class StillOwed(AdapterTimedOut):
    """A request not sent, since it would only wait behind an answer the adapter still owes: it fails as
    a timeout would, at once, saying which answer is owed and for how long."""

    def __init__(self, command: str, owed_for: float, message: str) -> None:
        super().__init__(command, owed_for, message)


@dataclass(frozen=True)
class Owed:
    what: str
    """The owed request, in words: "the evaluation of 'x'", "a 'stackTrace' request"."""
    pending: asyncio.Future[dict[str, Any]]
    since: float
    """When the request was sent, on the event loop's clock."""
    holds_every_request: bool
    """The adapter answers in turn, so every request waits behind it; else only what needs the stopped thread."""

    @classmethod
    def after_timeout(cls, what: str, pending: asyncio.Future[dict[str, Any]], timeout: float, *,
                      holds_every_request: bool) -> Owed:
        pending.add_done_callback(lambda done: done.cancelled() or done.exception())  # answered late, unread
        return cls(what, pending, asyncio.get_running_loop().time() - timeout, holds_every_request)

    @property
    def paid(self) -> bool:
        return self.pending.done()

    def refusal(self, adapter: str, command: str) -> StillOwed:
        """What `command`, not sent, fails with: it would have waited out its timeout behind the owed answer
        ('' for a call refused before it chose a request: one that needs the stopped thread)."""
        ran = asyncio.get_running_loop().time() - self.since
        if self.holds_every_request:
            return StillOwed(command, ran, f"{adapter} has not answered {self.what} for {ran:.0f}s (a value it "
                              "cannot read?), and it answers requests one at a time: this call would wait behind it. "
                              "Try again later, or `stop` or `restart` the program")
        return StillOwed(command, ran, f"{self.what} still runs in the program ({ran:.0f}s so far, inside a call "
                          f"that could not be interrupted), and {adapter} answers nothing for the stopped thread until "
                          "it ends: try again later, or `stop` or `restart` the program")
