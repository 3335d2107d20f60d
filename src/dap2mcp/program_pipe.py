"""The program's output through a pipe of its own, where the adapter would garble it.

gdb runs the program on its own stdout, which cdt-gdb-adapter parses as MI: the leading digits of
a line the program prints are taken for a command token and dropped (`42` arrives as `2`). So the
program's command line sends stdout and stderr to a FIFO, read here as the program's output.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable


def make_fifo() -> str:
    """A fresh FIFO in a private directory; `ProgramPipe.close` removes both."""
    path = os.path.join(tempfile.mkdtemp(prefix="dap2mcp-output-"), "program")
    os.mkfifo(path, 0o600)
    return path


class ProgramPipe:
    def __init__(self, path: str, transport: asyncio.BaseTransport, keep_open: int) -> None:
        self._path, self._transport, self._keep_open = path, transport, keep_open

    @classmethod
    async def open(cls, path: str, on_text: Callable[[str], None]) -> ProgramPipe:
        """Read `path` until closed. A writing end held here keeps the FIFO from reading end of file
        between the program's opens (a restart, a shell that reopens it)."""
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

        class Reader(asyncio.Protocol):
            def data_received(self, data: bytes) -> None:
                if text := decoder.decode(data):
                    on_text(text)

        reading = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        keep_open = os.open(path, os.O_WRONLY)
        transport, _ = await asyncio.get_running_loop().connect_read_pipe(Reader, os.fdopen(reading, "rb", 0))
        return cls(path, transport, keep_open)

    def close(self) -> None:
        self._transport.close()
        with contextlib.suppress(OSError):
            os.close(self._keep_open)
        shutil.rmtree(os.path.dirname(self._path), ignore_errors=True)
