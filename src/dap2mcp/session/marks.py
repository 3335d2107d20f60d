"""Marks the program is made to write to its own output, so that the end of what it printed is known
rather than guessed.

An evaluation's printing reaches dap2mcp after the evaluation's answer, through another process (debugpy's
launcher reads the program's pipes). A pause in that output proves nothing: a forwarder on a busy machine
pauses for longer than any bound worth waiting. A pipe keeps order, though: once a mark written to it after
the evaluation is back, everything written before it is in. Marks are taken out of the output before anything
else reads it, wherever the adapter split them.
"""

from __future__ import annotations

import asyncio
import itertools

PREFIX = "\x00dap2mcp-mark "
"""How every mark begins: NUL, which a program's text output does not hold."""
END = "\x00"
LONGEST = len(PREFIX) + 12
"""No mark is longer: text that starts like one and runs past this is the program's own."""
class Marks:
    def __init__(self) -> None:
        self._numbers = itertools.count(1)
        self._awaited: dict[str, asyncio.Future[None]] = {}
        self._held: dict[str, str] = {}
        """Per stream, the end of the last text, held back while it may be the start of a mark."""

    def new(self, fds: tuple[int, ...]) -> tuple[str, dict[int, asyncio.Future[None]]]:
        """A mark for each file descriptor (they may share a pipe, as debugpy's stdout and stderr do): the
        template of their text, which the program fills in with the descriptor (`%d`), and what says each is
        back, whichever stream brings it."""
        number = next(self._numbers)
        loop = asyncio.get_running_loop()
        return _text(number, "%d"), {fd: self._awaited.setdefault(_text(number, fd), loop.create_future())
                                     for fd in fds}

    def forget(self, waiting: dict[int, asyncio.Future[None]]) -> None:
        """Marks no longer waited for: if they come later they are still taken out."""
        for key in [key for key, waiter in self._awaited.items() if waiter in waiting.values()]:
            del self._awaited[key]

    def take_out(self, stream: str, text: str) -> str:
        """`text` of `stream` (an output category) without the marks in it, each of which is now back."""
        text = self._held.pop(stream, "") + text
        kept = []
        while (start := text.find(PREFIX[0])) != -1:
            kept.append(text[:start])
            rest = text[start:]
            end = rest.find(END, len(PREFIX)) if rest.startswith(PREFIX) else -1
            if end != -1 and end < LONGEST:
                self._back(rest[:end + 1])
                text = rest[end + 1:]
            elif len(rest) < LONGEST and PREFIX.startswith(rest[:len(PREFIX)]):
                self._held[stream] = rest  # a mark's beginning, its end still to come
                return "".join(kept)
            else:
                kept.append(rest[0])
                text = rest[1:]
        kept.append(text)
        return "".join(kept)

    def _back(self, mark: str) -> None:
        waiter = self._awaited.pop(mark, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


def _text(number: int, fd: int | str) -> str:
    return f"{PREFIX}{number}.{fd}{END}"
