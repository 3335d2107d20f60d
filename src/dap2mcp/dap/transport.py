"""Byte streams to a debug adapter: its stdio, or a TCP socket it listens on."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import re
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .. import processes
from .errors import AdapterFailure, AdapterGone, AdapterMissing

_STDERR_KEEP = 8192


@dataclass
class Transport:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter | asyncio.StreamWriter
    process: asyncio.subprocess.Process | None = None
    stderr_tail: bytearray = field(default_factory=bytearray)
    _stderr_task: asyncio.Task[None] | None = None
    _stdout_task: asyncio.Task[None] | None = None

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
        for task in (self._stderr_task, self._stdout_task):
            if task is not None:
                task.cancel()


async def spawn_stdio(
    argv: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: str | None = None
) -> Transport:
    """Start an adapter that speaks DAP on its stdin/stdout."""
    try:
        proc = await processes.spawn(argv, env=env, cwd=cwd)
    except OSError as exc:
        raise AdapterMissing(f"cannot start {argv[0]!r}: {exc}") from exc
    assert proc.stdout is not None and proc.stdin is not None and proc.stderr is not None
    transport = Transport(reader=proc.stdout, writer=proc.stdin, process=proc)  # type: ignore[arg-type]
    transport._stderr_task = asyncio.create_task(_drain(proc.stderr, transport.stderr_tail))
    return transport


async def connect_tcp(host: str, port: int, *, timeout: float = 10.0) -> Transport:
    """Connect to an adapter already listening (dlv dap, debugpy --listen, a remote adapter)."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except (TimeoutError, OSError) as exc:
        raise AdapterGone(f"cannot connect to {host}:{port}: {exc}") from exc
    return Transport(reader=reader, writer=writer)


async def spawn_listening(
    argv: Sequence[str], listening: re.Pattern[str], *, env: Mapping[str, str] | None = None,
    cwd: str | None = None, on_output: Callable[[str, str], None], timeout: float = 30.0,
    announced_on: Literal["stdout", "stderr"] = "stdout",
) -> Transport:
    """Start an adapter that prints the address it listens on (`listening`, groups host and port) on
    `announced_on`, then connect. Whatever it prints besides is its debuggee's output (Delve's, rdbg's):
    `on_output(category, text)`."""
    try:
        proc = await processes.spawn(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL)  # the program reads EOF
    except OSError as exc:
        raise AdapterMissing(f"cannot start {argv[0]!r}: {exc}") from exc
    assert proc.stdout is not None and proc.stderr is not None
    streams = {"stdout": proc.stdout, "stderr": proc.stderr}
    other: Literal["stdout", "stderr"] = "stderr" if announced_on == "stdout" else "stdout"
    other_tail = bytearray()
    other_task = asyncio.create_task(_drain(streams[other], other_tail, lambda text: on_output(other, text)))
    seen: list[str] = []
    try:
        try:
            match = await asyncio.wait_for(_address(streams[announced_on], listening, seen), timeout)
        except (TimeoutError, ValueError, AdapterFailure) as exc:  # ValueError: a line past the reader's limit
            said = ("".join(seen) + other_tail.decode("utf-8", "replace")).strip()[-600:]
            raise AdapterGone(f"{argv[0]} did not say where it listens"
                             f"{f' within {timeout:g}s' if isinstance(exc, TimeoutError) else ''}: "
                             f"{said or exc or 'no output'}") from exc
        transport = await connect_tcp(match["host"], int(match["port"]))
    except BaseException:  # a failure, or the `debug` call cancelled: nothing may outlive it
        other_task.cancel()
        await asyncio.shield(processes.kill_tree(proc))
        raise
    announced_tail = bytearray()
    announced_task = asyncio.create_task(_drain(streams[announced_on], announced_tail,
                                                lambda text: on_output(announced_on, text)))
    transport.process = proc
    if announced_on == "stdout":
        transport.stderr_tail, transport._stderr_task, transport._stdout_task = other_tail, other_task, announced_task
    else:
        transport.stderr_tail, transport._stderr_task, transport._stdout_task = announced_tail, announced_task, other_task
    return transport


async def _address(stream: asyncio.StreamReader, listening: re.Pattern[str], seen: list[str]) -> re.Match[str]:
    """The address, once what the adapter printed so far matches (over several lines where the adapter says it
    is ready after saying where: rdbg)."""
    while line := (await stream.readline()).decode("utf-8", "replace"):
        seen.append(line)
        if match := listening.search("".join(seen)):
            return match
    raise AdapterGone("adapter exited")


async def _drain(stream: asyncio.StreamReader, tail: bytearray, sink: Callable[[str], None] | None = None) -> None:
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    while chunk := await stream.read(65536):
        tail.extend(chunk)
        del tail[:-_STDERR_KEEP]
        if sink is not None:
            sink(decoder.decode(chunk))
