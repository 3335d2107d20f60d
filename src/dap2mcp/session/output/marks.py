"""Marks the program is made to write to its own output, so that the end of what it printed is known
rather than guessed.

An evaluation's printing reaches dap2mcp after the evaluation's answer, through another process (debugpy's
launcher reads the program's pipe); so does what the program wrote just before it stopped. A pause in that
output proves nothing: a forwarder on a busy machine pauses for longer than any bound worth waiting. A pipe
keeps order, though: once a mark written to it is back, everything written there before it is in. Marks are
taken out of the output before anything else reads it, wherever the adapter split them.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field

PREFIX = "\x00dap2mcp-mark "
"""How every mark begins: NUL, which a program's text output does not hold."""
END = "\x00"
LONGEST = len(PREFIX) + 12
"""No mark is longer: text that starts like one and runs past this is the program's own."""


@dataclass
class Mark:
    template: str
    """The marks' text, which the program fills in with the file descriptor it writes to (`%d`)."""
    back: dict[int, asyncio.Future[None]] = field(default_factory=dict)
    """Per file descriptor, done when its mark came back (whichever stream brought it)."""
    texts: dict[int, str] = field(default_factory=dict)


class Marks:
    def __init__(self) -> None:
        self._numbers = itertools.count(1)
        self._awaited: dict[str, asyncio.Future[None]] = {}
        self._outstanding: set[str] = set()
        """Marks written (or that may have been) and not back yet: only while one is, can text be a mark's
        beginning, to be held back."""
        self._held: dict[str, str] = {}
        """Per stream, the end of the last text, held back while it may be the start of a mark."""

    def new(self, fds: tuple[int, ...]) -> Mark:
        """Marks for file descriptors `fds`, waited for from now: one may come back before the answer that
        says it was written."""
        number = next(self._numbers)
        loop = asyncio.get_running_loop()
        mark = Mark(_text(number, "%d"))
        for fd in fds:
            mark.texts[fd] = text = _text(number, fd)
            mark.back[fd] = self._awaited[text] = loop.create_future()
            self._outstanding.add(text)
        return mark

    def not_written(self, mark: Mark, fds: list[int]) -> None:
        for fd in fds:
            self._outstanding.discard(mark.texts[fd])

    def forget(self, mark: Mark) -> None:
        """Marks no longer waited for: those written are still taken out when they come."""
        for text in mark.texts.values():
            self._awaited.pop(text, None)

    def take_out(self, stream: str, text: str) -> tuple[str, bool]:
        """`text` of `stream` (an output category) without the marks in it, and whether one was in it."""
        text = self._held.pop(stream, "") + text
        kept, seen = [], False
        while (start := text.find(PREFIX[0])) != -1:
            kept.append(text[:start])
            rest = text[start:]
            end = rest.find(END, len(PREFIX)) if rest.startswith(PREFIX) else -1
            if end != -1 and end < LONGEST:
                self._back(rest[:end + 1])
                text, seen = rest[end + 1:], True
            elif self._outstanding and len(rest) < LONGEST and PREFIX.startswith(rest[:len(PREFIX)]):
                self._held[stream] = rest  # a mark's beginning, its end still to come
                return "".join(kept), seen
            else:
                kept.append(rest[0])
                text = rest[1:]
        kept.append(text)
        return "".join(kept), seen

    def _back(self, text: str) -> None:
        self._outstanding.discard(text)
        waiter = self._awaited.pop(text, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


def _text(number: int, fd: int | str) -> str:
    return f"{PREFIX}{number}.{fd}{END}"
