"""Byte streams to a debug adapter: its stdio, or a TCP socket it listens on."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .. import processes
from ..errors import DebugError, ErrorCode

_STDERR_KEEP = 8192


@dataclass
class Transport:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter | asyncio.StreamWriter
    process: asyncio.subprocess.Process | None = None
    stderr_tail: bytearray = field(default_factory=bytearray)
    _stderr_task: asyncio.Task[None] | None = None

    def describe_exit(self) -> str:
        """A short reason for the adapter going away, for error messages."""
        parts = []
        if self.process is not None and self.process.returncode is not None:
            parts.append(f"adapter exited with code {self.process.returncode}")
        tail = self.stderr_tail.decode("utf-8", "replace").strip()
        if tail:
            parts.append(f"stderr: {tail[-600:]}")
        return "; ".join(parts) or "adapter closed the connection"

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()
        if self.process is not None:
            await processes.kill_tree(self.process)
        if self._stderr_task is not None:
            self._stderr_task.cancel()


async def spawn_stdio(
    argv: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: str | None = None
) -> Transport:
    """Start an adapter that speaks DAP on its stdin/stdout."""
    try:
        proc = await processes.spawn(argv, env=env, cwd=cwd)
    except OSError as exc:
        raise DebugError(ErrorCode.ADAPTER_NOT_FOUND, f"cannot start {argv[0]!r}: {exc}") from exc
    assert proc.stdout is not None and proc.stdin is not None and proc.stderr is not None
    transport = Transport(reader=proc.stdout, writer=proc.stdin, process=proc)  # type: ignore[arg-type]
    transport._stderr_task = asyncio.create_task(_drain(proc.stderr, transport.stderr_tail))
    return transport


async def connect_tcp(host: str, port: int, *, timeout: float = 10.0) -> Transport:
    """Connect to an adapter already listening (dlv dap, debugpy --listen, a remote adapter)."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except (TimeoutError, OSError) as exc:
        raise DebugError(ErrorCode.ADAPTER_FAILED, f"cannot connect to {host}:{port}: {exc}") from exc
    return Transport(reader=reader, writer=writer)


async def _drain(stream: asyncio.StreamReader, tail: bytearray) -> None:
    while chunk := await stream.read(4096):
        tail.extend(chunk)
        del tail[:-_STDERR_KEEP]
