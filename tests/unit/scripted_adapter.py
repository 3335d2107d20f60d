"""A scripted stand-in for a debug adapter, playing back what a real one said (tests/transcripts/).

Why a stand-in: the run state of a session (running, paused, paused by request, a stray stop stepped past,
exited, ended) and each adapter's quirks in reaching it are decided by the session's own code from the
messages an adapter sends. Played back from a transcript of a real adapter, those messages drive the real
`DebugSession`, `Run` and `Stops` in milliseconds, without an adapter on the machine and without the timing
of a real program, so every transition can be checked after every step. The e2e tests still run the real
adapters; this replaces nothing there.

How a transcript is played (one JSON line per DAP message, as `DAP2MCP_DAP_TRACE` writes them):

- Requests that move the program or the session (`MOVES`: launch, configurationDone, continue, next, pause,
  disconnect, ...) are the script's gates, played in order: the stand-in waits until the session sends that
  request, then sends what the adapter sent after it (its response, the events) up to the next gate. A move
  the transcript does not have next is refused (saying which one it has) and noted in `diverged`; the
  session's fixture fails on any, and when a move of the transcript was never sent.
- Any other request (initialize, setBreakpoints, threads, stackTrace, variables, ...) is answered at once
  with the adapter's response to the same command sent between the same two gates, in the order they were
  sent; once those are used up, with the last such answer before (a stack asked for again is the same stack).

The transcripts are recorded by the very tests that play them: with DAP2MCP_RECORD_TRANSCRIPTS=1 the
`scripted_session` of a test starts the real adapter instead, with the DAP trace on, and writes the trace,
trimmed (`trim`), to tests/transcripts/<name>.jsonl. The tests' assertions then hold for the real adapter too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from dap2mcp import processes
from dap2mcp.adapters import PROFILES, Target
from dap2mcp.adapters.base import Tool
from dap2mcp.dap import DapClient, Transport
from dap2mcp.dap.framing import Message, encode, read_message
from dap2mcp.dap.trace import TRACE_ENV
from dap2mcp.session.program import link
from dap2mcp.session.session import DebugSession

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPTS = ROOT / "tests" / "transcripts"
ROOT_MARK = "${root}"
"""The repository's path in a transcript: the paths the adapter named are this checkout's when played."""
RECORD_ENV = "DAP2MCP_RECORD_TRANSCRIPTS"

MOVES = frozenset({"launch", "attach", "configurationDone", "continue", "next", "stepIn", "stepOut", "stepBack",
                   "reverseContinue", "pause", "restart", "terminate", "disconnect"})
"""Requests played in order: what the adapter says after them depends on them."""

QUIET_EVENTS = frozenset({"module", "loadedSource"})
"""Events a transcript leaves out: the session only lists them (the sources an agent may read)."""


def load(name: str) -> list[Message]:
    """A transcript's messages, each with its direction (`dir`: sent by dap2mcp or received from the adapter)."""
    text = (TRANSCRIPTS / f"{name}.jsonl").read_text(encoding="utf-8").replace(ROOT_MARK, str(ROOT))
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def trim(lines: list[Message]) -> list[Message]:
    """A recorded trace as a transcript: the events the session only lists, the adapter's reverse requests
    and the program's process id (meaningless on another machine, and not to be signalled there) left out."""
    kept = []
    for line in lines:
        message = line["message"]
        if line["dir"] == "closed":  # the trace's note of a connection's end, which no adapter sends
            continue
        if message.get("type") == "event" and message.get("event") in QUIET_EVENTS:
            continue
        if line["dir"] == "received" and message.get("type") == "request":
            continue
        if line["dir"] == "sent" and message.get("type") == "response":  # our answers to reverse requests
            continue
        if message.get("event") == "process":
            message.get("body", {}).pop("systemProcessId", None)
        kept.append(line)
    return kept


@dataclass
class Sent:
    """A request the session sent, and the run's state and stop count as it sent it."""

    command: str
    arguments: dict[str, Any]
    seen: Any = None


@dataclass
class _Gate:
    command: str
    seq: int


@dataclass
class _Answers:
    """The adapter's responses to one command between two gates, in the order they were sent."""

    responses: list[Message] = field(default_factory=list)
    used: int = 0


class ScriptedAdapter:
    def __init__(self, lines: list[Message]) -> None:
        self.diverged: list[str] = []
        self.finished = False
        """Every gate of the transcript was passed and everything after the last one was sent."""
        self._script: list[_Gate | Message] = []
        self._answers: dict[tuple[int, str], _Answers] = {}
        self._read(lines)
        self._segment = 0
        self._moves: asyncio.Queue[Message] = asyncio.Queue()
        self._bound: dict[int, int] = {}
        self._writer: asyncio.StreamWriter | None = None
        self._tasks: list[asyncio.Task[None]] = []

    def _read(self, lines: list[Message]) -> None:
        """Split the transcript into the script (gates, and what the adapter sent between them) and the
        answers to every other request, by the gate they followed."""
        requests: dict[int, tuple[str, int]] = {}
        segment = 0
        for line in lines:
            message = line["message"]
            if line["dir"] == "sent":
                command = message["command"]
                if command in MOVES:
                    segment += 1
                    self._script.append(_Gate(command, message["seq"]))
                requests[message["seq"]] = (command, segment)
            elif message.get("type") == "response":
                command, at = requests[message["request_seq"]]
                if command in MOVES:
                    self._script.append(message)
                else:
                    self._answers.setdefault((at, command), _Answers()).responses.append(message)
            else:
                self._script.append(message)

    # -- the connection --------------------------------------------------------------------------

    async def transport(self) -> Transport:
        """The session's end of an in-memory connection (a socket pair) whose other end this plays."""
        ours, theirs = socket.socketpair()
        reader, self._writer = await asyncio.open_connection(sock=ours)
        session_reader, session_writer = await asyncio.open_connection(sock=theirs)
        self._tasks = [asyncio.create_task(self._listen(reader)), asyncio.create_task(self._play())]
        return Transport(reader=session_reader, writer=session_writer)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._writer is not None:
            self._writer.close()

    def _send(self, message: Message) -> None:
        assert self._writer is not None
        if not self._writer.is_closing():
            self._writer.write(encode(message))

    # -- what the session sends ------------------------------------------------------------------

    async def _listen(self, reader: asyncio.StreamReader) -> None:
        while (request := await read_message(reader)) is not None:
            if request.get("type") != "request":
                continue
            if request["command"] in MOVES and not self.finished:
                self._moves.put_nowait(request)
            else:
                self._answer(request)

    def _answer(self, request: Message) -> None:
        """A request answered whenever it comes, with what the adapter answered it at this point of the run."""
        command = request["command"]
        recorded = self._recorded(command)
        if recorded is None and command == "disconnect":
            recorded = {"success": True}
        if recorded is None:
            self._refuse(request, f"no answer to '{command}' in the transcript")
            return
        self._send({**recorded, "seq": 0, "type": "response", "request_seq": request["seq"], "command": command})

    def _recorded(self, command: str) -> Message | None:
        here = self._answers.get((self._segment, command))
        if here is not None and here.used < len(here.responses):
            here.used += 1
            return here.responses[here.used - 1]
        segments = sorted(segment for segment, name in self._answers if name == command)
        before = [segment for segment in segments if segment <= self._segment]
        if before:
            return self._answers[(before[-1], command)].responses[-1]
        return self._answers[(segments[0], command)].responses[0] if segments else None

    def _refuse(self, request: Message, why: str) -> None:
        self._send({"seq": 0, "type": "response", "request_seq": request["seq"], "command": request["command"],
                    "success": False, "message": f"scripted adapter: {why}"})

    # -- what the adapter said -------------------------------------------------------------------

    async def _play(self) -> None:
        for item in self._script:
            if isinstance(item, _Gate):
                while (request := await self._moves.get())["command"] != item.command:
                    self.diverged.append(f"'{request['command']}' sent where the transcript has '{item.command}'")
                    self._refuse(request, f"the transcript has '{item.command}' next")
                self._bound[item.seq] = request["seq"]
                self._segment += 1
            elif item.get("type") == "response":
                self._send({**item, "request_seq": self._bound[item["request_seq"]]})
            else:
                self._send(item)
        self.finished = True
        while not self._moves.empty():  # sent after the last gate
            self._answer(self._moves.get_nowait())


# -- a session on a transcript ---------------------------------------------------------------------


@dataclass
class Scripted:
    session: DebugSession
    sent: list[Sent] = field(default_factory=list)
    """Every request the session sent, in order, with its state and stop count as it sent it."""
    said: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """Every event the adapter sent, as it sent it, before the session read it."""

    def requests(self, command: str) -> list[Sent]:
        return [s for s in self.sent if s.command == command]

    def events(self, name: str) -> list[dict[str, Any]]:
        return [body for event, body in self.said if event == name]


@asynccontextmanager
async def scripted_session(name: str, adapter: str, path: Path, monkeypatch: pytest.MonkeyPatch,
                           tmp_path: Path, **target: Any) -> AsyncIterator[Scripted]:
    """A `DebugSession` with the real profile of `adapter` on `path` (mode `source`), connected to the
    transcript `name` played back. Afterwards: the session sent the transcript's moves in order, all of them.

    With DAP2MCP_RECORD_TRANSCRIPTS=1 set, the real adapter runs instead and the transcript is written."""
    recording = bool(os.environ.get(RECORD_ENV))
    session = DebugSession(Target(mode="source", path=str(path), cwd=str(path.parent if path.is_file() else path),
                                  **target), PROFILES[adapter])
    scripted = Scripted(session)
    send = DapClient.send

    def noted(client: DapClient, command: str, arguments: dict[str, Any] | None = None) -> Any:
        scripted.sent.append(Sent(command, arguments or {}, (session.state, session.stop_count)))
        return send(client, command, arguments)

    monkeypatch.setattr(DapClient, "send", noted)
    on_event = DapClient.on_event

    def heard(client: DapClient, handler: Any) -> None:
        on_event(client, lambda event, body: scripted.said.append((event, dict(body))))
        on_event(client, handler)

    monkeypatch.setattr(DapClient, "on_event", heard)
    trace = tmp_path / "trace.jsonl"
    player: ScriptedAdapter | None = None
    if recording:
        monkeypatch.setenv(TRACE_ENV, str(trace))
        await session.ready()  # builds the program, finds its entry function
    else:
        player = ScriptedAdapter(load(name))

        async def reach(plan: Any, on_output: Any) -> Transport:
            assert player is not None
            return await player.transport()

        async def started(argv: Any, **options: Any) -> None:
            raise AssertionError(f"a played transcript starts no process: {argv}")

        monkeypatch.setattr(link, "open_transport", reach)
        monkeypatch.setattr(processes, "spawn", started)
        # the adapter is never started, so it need not be installed: the profile's plan only names its command
        monkeypatch.setattr(Tool, "require", lambda tool, profile: tool.commands[0])
    try:
        yield scripted
    finally:
        with contextlib.suppress(Exception):
            await session.close()
        if player is not None:
            await player.close()
        else:
            lines = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
            text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in trim(lines))
            (TRANSCRIPTS / f"{name}.jsonl").write_text(text.replace(str(ROOT), ROOT_MARK), encoding="utf-8")
    if player is not None:
        assert not player.diverged, player.diverged
        assert player.finished, "the session did not send every move of the transcript"
