"""Unit tests for `DapClient`: correlation, events, errors, shutdown and reverse requests.

The peer is a scripted in-process fake: the client reads from an `asyncio.StreamReader` the test
feeds bytes to, and writes into one end of a socketpair whose other end the test reads and
decodes. It is used only at the wire level, to produce byte splits, interleavings and faults on
demand; it does not pretend to be a debugger. Tests against real debug adapters live in
tests/integration. The last tests use `spawn_stdio` on tiny real child processes, only to check
how the client reports an adapter process that dies.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from dap2mcp.dap import DapClient, Transport, spawn_stdio
from dap2mcp.dap.framing import Message, encode, read_message
from dap2mcp.errors import ErrorCode, Failure
from dap2mcp.processes import pid_alive
from dap2mcp.server.failures import coded

BOUND = 10.0
"""A hang guard, not a measure: every wait here takes milliseconds (the start of a child Python the
longest), so a bound far above that fails only on a hang, not on a busy machine."""


class Peer:
    """The adapter side of the wire, scripted by the test."""

    def __init__(self, incoming: asyncio.StreamReader, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.incoming = incoming  # what the client reads
        self.reader = reader  # what the client wrote
        self.writer = writer
        self._seq = 1000

    def feed(self, data: bytes) -> None:
        self.incoming.feed_data(data)

    def send(self, message: Message) -> None:
        self.feed(encode(message))

    def eof(self) -> None:
        self.incoming.feed_eof()

    async def receive(self, timeout: float = BOUND) -> Message:
        message = await asyncio.wait_for(read_message(self.reader), timeout)
        assert message is not None, "client closed its side"
        return message

    async def receive_request(self, command: str | None = None) -> Message:
        message = await self.receive()
        assert message["type"] == "request"
        if command is not None:
            assert message["command"] == command
        return message

    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def respond(self, request: Message, body: dict[str, Any] | None = None, **fields: Any) -> None:
        message: Message = {
            "seq": self._next_seq(),
            "type": "response",
            "request_seq": request["seq"],
            "command": request["command"],
            "success": True,
        }
        if body is not None:
            message["body"] = body
        message.update(fields)
        self.send(message)

    def event(self, name: str, body: dict[str, Any] | None = None) -> None:
        self.send({"seq": self._next_seq(), "type": "event", "event": name, "body": body or {}})

    def reverse_request(self, command: str, arguments: dict[str, Any] | None = None) -> int:
        seq = self._next_seq()
        message: Message = {"seq": seq, "type": "request", "command": command}
        if arguments is not None:
            message["arguments"] = arguments
        self.send(message)
        return seq


@pytest.fixture
async def wire() -> AsyncIterator[tuple[DapClient, Peer]]:
    client_sock, peer_sock = socket.socketpair()
    _, client_writer = await asyncio.open_connection(sock=client_sock)
    peer_reader, peer_writer = await asyncio.open_connection(sock=peer_sock)
    incoming = asyncio.StreamReader()
    client = DapClient(Transport(reader=incoming, writer=client_writer))
    client.start()
    peer = Peer(incoming, peer_reader, peer_writer)
    try:
        yield client, peer
    finally:
        await asyncio.wait_for(client.close(), BOUND)
        peer_writer.close()


def collect_events(client: DapClient) -> list[tuple[str, dict[str, Any]]]:
    events: list[tuple[str, dict[str, Any]]] = []
    client.on_event(lambda name, body: events.append((name, body)))
    return events


# -- correlation -------------------------------------------------------------------------------


async def test_request_sends_well_formed_message(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    task = asyncio.create_task(client.request("initialize", {"adapterID": "x"}, timeout=BOUND))
    request = await peer.receive_request("initialize")
    assert request["arguments"] == {"adapterID": "x"}
    assert isinstance(request["seq"], int) and request["seq"] > 0
    peer.respond(request, {"supportsConfigurationDoneRequest": True})
    assert await asyncio.wait_for(task, BOUND) == {"supportsConfigurationDoneRequest": True}

    # No arguments: the key is omitted, the seq increases, an absent body resolves to {}.
    task = asyncio.create_task(client.request("threads", timeout=BOUND))
    second = await peer.receive_request("threads")
    assert "arguments" not in second
    assert second["seq"] > request["seq"]
    peer.respond(second)
    assert await asyncio.wait_for(task, BOUND) == {}


async def test_out_of_order_responses_correlate_by_seq(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    futures = [client.send("evaluate", {"expression": f"e{i}"}) for i in range(3)]
    requests = [await peer.receive_request("evaluate") for _ in range(3)]
    assert len({r["seq"] for r in requests}) == 3

    # Answer last first, and put each result in the body so a mix-up cannot go unnoticed.
    for request in reversed(requests):
        peer.respond(request, {"result": request["arguments"]["expression"]})
        await asyncio.sleep(0)
    results = await asyncio.wait_for(asyncio.gather(*futures), BOUND)
    assert [r["result"] for r in results] == ["e0", "e1", "e2"]


async def test_response_split_across_tiny_reads(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    future = client.send("stackTrace", {"threadId": 1})
    request = await peer.receive_request("stackTrace")
    data = encode(
        {
            "seq": 9,
            "type": "response",
            "request_seq": request["seq"],
            "command": "stackTrace",
            "success": True,
            "body": {"stackFrames": [{"id": 1, "name": "fünf"}]},
        }
    )
    for i in range(len(data)):
        assert not future.done()
        peer.feed(data[i : i + 1])
        await asyncio.sleep(0)
    body = await asyncio.wait_for(future, BOUND)
    assert body["stackFrames"][0]["name"] == "fünf"


async def test_response_to_unknown_request_is_ignored(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    future = client.send("threads")
    request = await peer.receive_request("threads")
    peer.send({"seq": 1, "type": "response", "request_seq": 424242, "command": "threads", "success": True})
    peer.respond(request, {"threads": []})
    assert await asyncio.wait_for(future, BOUND) == {"threads": []}
    assert not client.closed


# -- events ------------------------------------------------------------------------------------


async def test_events_interleaved_with_responses_are_delivered_in_order(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    log: list[str] = []
    events = collect_events(client)
    client.on_event(lambda name, body: log.append(f"event:{name}:{body.get('n')}"))

    first = client.send("continue")
    first.add_done_callback(lambda f: log.append("response:continue"))
    second = client.send("next")
    second.add_done_callback(lambda f: log.append("response:next"))
    req_continue = await peer.receive_request("continue")
    req_next = await peer.receive_request("next")

    # One read holding: event, response, event, event, response, event.
    peer.feed(
        encode({"seq": 1, "type": "event", "event": "output", "body": {"n": 1}})
        + encode(
            {"seq": 2, "type": "response", "request_seq": req_continue["seq"], "command": "continue", "success": True}
        )
        + encode({"seq": 3, "type": "event", "event": "continued", "body": {"n": 2}})
        + encode({"seq": 4, "type": "event", "event": "stopped", "body": {"n": 3}})
        + encode({"seq": 5, "type": "response", "request_seq": req_next["seq"], "command": "next", "success": True})
        + encode({"seq": 6, "type": "event", "event": "output", "body": {"n": 4}})
    )
    await asyncio.wait_for(asyncio.gather(first, second), BOUND)
    for _ in range(50):
        if len(events) == 4:
            break
        await asyncio.sleep(0.01)

    assert events == [("output", {"n": 1}), ("continued", {"n": 2}), ("stopped", {"n": 3}), ("output", {"n": 4})]
    # Events and responses are dispatched in wire order (done callbacks run one loop step later,
    # so compare each response against the events that precede it on the wire).
    assert log.index("event:output:1") < log.index("response:continue")
    assert log.index("event:stopped:3") < log.index("response:next")


async def test_event_without_body_and_failing_handler(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire

    def broken(name: str, body: dict[str, Any]) -> None:
        raise RuntimeError("handler bug")

    client.on_event(broken)
    events = collect_events(client)
    peer.send({"seq": 1, "type": "event", "event": "initialized"})
    peer.event("output", {"output": "x"})
    future = client.send("threads")
    peer.respond(await peer.receive_request("threads"))
    await asyncio.wait_for(future, BOUND)
    # A raising handler neither stops later handlers nor kills the reader.
    assert events == [("initialized", {}), ("output", {"output": "x"})]
    assert not client.closed


# -- failures ----------------------------------------------------------------------------------


async def test_failed_response_raises_adapter_error_with_formatted_text(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    task = asyncio.create_task(client.request("evaluate", {"expression": "nope"}, timeout=BOUND))
    request = await peer.receive_request("evaluate")
    peer.respond(
        request,
        {
            "error": {
                "id": 2025,
                "format": "Unable to evaluate '{expr}': {reason} ({expr})",
                "variables": {"expr": "nope", "reason": "NameError"},
            }
        },
        success=False,
        message="generic failure",
    )
    with pytest.raises(Failure) as info:
        await asyncio.wait_for(task, BOUND)
    assert coded(info.value).code == ErrorCode.ADAPTER_ERROR
    assert info.value.message == "Unable to evaluate 'nope': NameError (nope)"
    assert not client.closed


async def test_failed_response_falls_back_to_message(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    task = asyncio.create_task(client.request("setBreakpoints", timeout=BOUND))
    peer.respond(await peer.receive_request("setBreakpoints"), success=False, message="no such file")
    with pytest.raises(Failure) as info:
        await asyncio.wait_for(task, BOUND)
    assert coded(info.value).code == ErrorCode.ADAPTER_ERROR
    assert info.value.message == "no such file"

    task = asyncio.create_task(client.request("pause", timeout=BOUND))
    peer.respond(await peer.receive_request("pause"), success=False)
    with pytest.raises(Failure) as info:
        await asyncio.wait_for(task, BOUND)
    assert coded(info.value).code == ErrorCode.ADAPTER_ERROR
    assert "pause" in info.value.message


async def test_unanswered_request_times_out(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    start = time.monotonic()
    with pytest.raises(Failure) as info:
        await asyncio.wait_for(client.request("launch", {"program": "x"}, timeout=0.2), BOUND)
    assert coded(info.value).code == ErrorCode.TIMEOUT
    assert info.value.message == "debug adapter did not answer 'launch' within 0.2s"
    # not given up early; a lower bound, which a busy machine can only make truer (no upper one: BOUND)
    assert time.monotonic() - start >= 0.2 - 0.01  # asyncio may run a timer up to its clock's resolution early
    await peer.receive_request("launch")
    # A timeout is about one request, not the connection.
    assert not client.closed
    future = client.send("threads")
    peer.respond(await peer.receive_request("threads"), {"threads": [{"id": 1, "name": "main"}]})
    assert (await asyncio.wait_for(future, BOUND))["threads"][0]["id"] == 1


async def test_a_waiter_that_gives_up_leaves_the_request_to_others(wire: tuple[DapClient, Peer]) -> None:
    """The handshake sends `launch`, waits on it with a short timeout, and waits again later: neither a
    timeout nor a cancelled waiter may cancel the request's own future."""
    client, peer = wire
    launched = client.send("launch", {"program": "x"})
    with pytest.raises(Failure) as info:
        await client.wait("launch", launched, 0.1)
    assert coded(info.value).code == ErrorCode.TIMEOUT
    impatient = asyncio.create_task(client.wait("launch", launched, 30))
    await asyncio.sleep(0.05)
    impatient.cancel()
    with pytest.raises(asyncio.CancelledError):
        await impatient
    assert not launched.done()
    patient = asyncio.create_task(client.wait("launch", launched, 30))
    peer.respond(await peer.receive_request("launch"), {"ok": 1})
    assert await asyncio.wait_for(patient, BOUND) == {"ok": 1}
    assert await client.wait("launch", launched, 0.01) == {"ok": 1}  # already answered: no waiting


async def test_peer_eof_fails_all_pending_at_once(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    events = collect_events(client)
    waiting = [  # timeouts far past BOUND: an answer within BOUND can only have come from the end of input
        asyncio.create_task(client.request("launch", timeout=600)),
        asyncio.create_task(client.request("threads", timeout=600)),
    ]
    sent = client.send("configurationDone")  # a fire-and-forget one too
    received = {(await peer.receive_request())["command"] for _ in range(3)}
    assert received == {"launch", "threads", "configurationDone"}
    assert not client.closed

    peer.eof()
    results = await asyncio.wait_for(asyncio.gather(*waiting, sent, return_exceptions=True), BOUND)
    for result in results:
        assert isinstance(result, Failure), result
        assert coded(result).code == ErrorCode.ADAPTER_FAILED
    assert "'launch' failed" in results[0].message
    assert "closed the connection" in results[0].message

    assert client.closed
    assert client.close_reason is not None and "closed the connection" in client.close_reason
    assert [name for name, _ in events] == ["_closed"]
    assert events[0][1]["reason"] == client.close_reason

    # Later sends fail at once, without touching the wire: already failed when handed back, and a request
    # never suspends (a coroutine that ends at its first step raises StopIteration or its error there).
    late = client.send("threads")
    assert late.done()
    with pytest.raises(Failure) as info:
        await late
    assert coded(info.value).code == ErrorCode.ADAPTER_FAILED
    asking = client.request("threads", timeout=600)
    with pytest.raises(Failure) as info:
        asking.send(None)
    assert coded(info.value).code == ErrorCode.ADAPTER_FAILED


async def test_close_fails_pending_and_emits_closed_once(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    events = collect_events(client)
    task = asyncio.create_task(client.request("launch", timeout=30))
    await peer.receive_request("launch")
    await asyncio.wait_for(client.close(), BOUND)
    with pytest.raises(Failure) as info:
        await asyncio.wait_for(task, BOUND)
    assert coded(info.value).code == ErrorCode.ADAPTER_FAILED
    assert client.closed
    # The client's side of the wire is closed too.
    assert await asyncio.wait_for(read_message(peer.reader), BOUND) is None
    await client.close()  # idempotent
    assert [name for name, _ in events] == ["_closed"]


@pytest.mark.parametrize(
    "garbage",
    [
        pytest.param(b"Content-Length: 5\r\n\r\n{oops", id="non-json"),
        pytest.param(b"Content-Length: 7\r\n\r\n[1,2,3]", id="non-object"),
        pytest.param(b"Content-Length: lots\r\n\r\n{}", id="bad-length"),
        pytest.param(b'Content-Length: 100\r\n\r\n{"seq":1', id="eof-mid-body"),
    ],
)
async def test_malformed_message_closes_with_adapter_failed(wire: tuple[DapClient, Peer], garbage: bytes) -> None:
    client, peer = wire
    events = collect_events(client)
    task = asyncio.create_task(client.request("threads", timeout=30))
    await peer.receive_request("threads")
    peer.event("output", {"output": "before"})
    peer.feed(garbage)
    peer.eof()
    with pytest.raises(Failure) as info:
        await asyncio.wait_for(task, BOUND)
    assert coded(info.value).code == ErrorCode.ADAPTER_FAILED
    assert "malformed" in info.value.message
    assert client.closed
    assert [name for name, _ in events] == ["output", "_closed"]
    with pytest.raises(Failure) as info:
        await client.send("threads")
    assert coded(info.value).code == ErrorCode.ADAPTER_FAILED


async def test_malformed_message_without_eof_still_closes(wire: tuple[DapClient, Peer]) -> None:
    # The peer keeps the stream open after the garbage: the client must not wait for more.
    client, peer = wire
    task = asyncio.create_task(client.request("threads", timeout=30))
    await peer.receive_request("threads")
    peer.feed(b"Content-Length: 4\r\n\r\nnope")
    with pytest.raises(Failure) as info:
        await asyncio.wait_for(task, BOUND)
    assert coded(info.value).code == ErrorCode.ADAPTER_FAILED
    assert client.closed


async def test_wrongly_shaped_message_closes_instead_of_killing_reader(wire: tuple[DapClient, Peer]) -> None:
    # Valid JSON, wrong shape: a request_seq that cannot be looked up. The reader must shut the
    # client down (failing what is pending) rather than die and leave every request hanging.
    client, peer = wire
    events = collect_events(client)
    task = asyncio.create_task(client.request("threads", timeout=30))
    await peer.receive_request("threads")
    peer.send({"seq": 1, "type": "response", "request_seq": [1], "command": "threads", "success": True})
    with pytest.raises(Failure) as info:
        await asyncio.wait_for(task, BOUND)
    assert coded(info.value).code == ErrorCode.ADAPTER_FAILED
    assert "malformed" in info.value.message
    assert client.closed
    assert [name for name, _ in events] == ["_closed"]


async def test_error_variables_of_wrong_type(wire: tuple[DapClient, Peer]) -> None:
    # `variables` must be an object; a list is ignored rather than crashing the reader.
    client, peer = wire
    task = asyncio.create_task(client.request("evaluate", timeout=BOUND))
    peer.respond(
        await peer.receive_request("evaluate"),
        {"error": {"id": 1, "format": "bad {x}", "variables": ["x"]}},
        success=False,
    )
    with pytest.raises(Failure) as info:
        await asyncio.wait_for(task, BOUND)
    assert coded(info.value).code == ErrorCode.ADAPTER_ERROR
    assert info.value.message == "bad {x}"
    assert not client.closed
    future = client.send("threads")
    peer.respond(await peer.receive_request("threads"), {"threads": []})
    assert await asyncio.wait_for(future, BOUND) == {"threads": []}


# -- reverse requests --------------------------------------------------------------------------


async def wait_for_output(chunks: list[tuple[str, str]], needle: str, category: str = "stdout") -> str:
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        text = "".join(t for c, t in chunks if c == category)
        if needle in text:
            return text
        await asyncio.sleep(0.01)
    raise AssertionError(f"{needle!r} never reached the sink; got {chunks!r}")


async def test_run_in_terminal_spawns_and_answers(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    chunks: list[tuple[str, str]] = []
    client.terminal.sink = lambda category, text: chunks.append((category, text))
    seq = peer.reverse_request(
        "runInTerminal",
        {"kind": "integrated", "title": "t", "cwd": "", "args": ["python3", "-c", "print('hi from terminal')"]},
    )
    response = await peer.receive()
    assert response["type"] == "response"
    assert response["request_seq"] == seq
    assert response["command"] == "runInTerminal"
    assert response["success"] is True
    assert isinstance(response["seq"], int)
    pid = response["body"]["processId"]
    assert isinstance(pid, int) and pid > 0
    assert [p.pid for p in client.terminal.processes] == [pid]

    text = await wait_for_output(chunks, "hi from terminal")
    assert text.strip() == "hi from terminal"
    assert await asyncio.wait_for(client.terminal.processes[0].wait(), BOUND) == 0


async def test_run_in_terminal_env_and_stderr(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    chunks: list[tuple[str, str]] = []
    client.terminal.sink = lambda category, text: chunks.append((category, text))
    script = "import os, sys; print(os.environ.get('DAP2MCP_T')); sys.stderr.write('err-text')"
    peer.reverse_request("runInTerminal", {"args": [sys.executable, "-c", script], "env": {"DAP2MCP_T": "v1"}})
    response = await peer.receive()
    assert response["success"] is True
    assert await wait_for_output(chunks, "v1")
    proc = client.terminal.processes[0]
    await asyncio.wait_for(proc.wait(), BOUND)
    assert "err-text" in await wait_for_output(chunks, "err-text", "stderr")


async def test_run_in_terminal_failure_is_answered(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    seq = peer.reverse_request("runInTerminal", {"args": ["/nonexistent/dap2mcp-no-such-binary"]})
    response = await peer.receive()
    assert response["request_seq"] == seq and response["success"] is False
    assert "runInTerminal failed" in response["message"]

    seq = peer.reverse_request("runInTerminal", {"args": []})
    response = await peer.receive()
    assert response["request_seq"] == seq and response["success"] is False
    assert client.terminal.processes == []


async def test_unknown_reverse_request_gets_failure(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    seq = peer.reverse_request("startDebugging", {"request": "launch", "configuration": {}})
    response = await peer.receive()
    assert response["type"] == "response"
    assert response["request_seq"] == seq
    assert response["command"] == "startDebugging"
    assert response["success"] is False
    assert "startDebugging" in response["message"]
    assert not client.closed


async def test_registered_reverse_handler(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    seen: list[dict[str, Any]] = []

    async def handler(arguments: dict[str, Any]) -> dict[str, Any]:
        seen.append(arguments)
        return {"ok": arguments["n"] * 2}

    client.on_reverse_request("custom", handler)
    seq = peer.reverse_request("custom", {"n": 21})
    response = await peer.receive()
    assert seen == [{"n": 21}]
    assert response["request_seq"] == seq
    assert response["success"] is True
    assert response["body"] == {"ok": 42}


async def test_raising_reverse_handler_still_answers(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire

    async def handler(arguments: dict[str, Any]) -> dict[str, Any]:
        raise ValueError("handler exploded")

    client.on_reverse_request("startDebugging", handler)
    seq = peer.reverse_request("startDebugging", {"configuration": {}})
    response = await peer.receive()
    assert response["type"] == "response"
    assert response["request_seq"] == seq
    assert response["success"] is False
    assert "handler exploded" in response["message"]
    assert not client.closed
    # And the connection keeps working.
    future = client.send("threads")
    peer.respond(await peer.receive_request("threads"), {"threads": []})
    assert await asyncio.wait_for(future, BOUND) == {"threads": []}


async def test_reverse_request_interleaved_with_own_request(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    task = asyncio.create_task(client.request("launch", timeout=BOUND))
    launch = await peer.receive_request("launch")
    # The adapter asks for a terminal before it answers launch, as debugpy does.
    seq = peer.reverse_request("runInTerminal", {"args": [sys.executable, "-c", "pass"]})
    response = await peer.receive()
    assert response["type"] == "response" and response["request_seq"] == seq and response["success"] is True
    assert response["seq"] != launch["seq"]
    assert not task.done()
    peer.respond(launch)
    assert await asyncio.wait_for(task, BOUND) == {}


async def test_close_reaps_terminal_process(wire: tuple[DapClient, Peer]) -> None:
    client, peer = wire
    chunks: list[tuple[str, str]] = []
    client.terminal.sink = lambda category, text: chunks.append((category, text))
    script = "import time; print('started', flush=True); time.sleep(60)"
    peer.reverse_request("runInTerminal", {"args": ["python3", "-c", script]})
    pid = (await peer.receive())["body"]["processId"]
    await wait_for_output(chunks, "started")
    assert pid_alive(pid)

    await asyncio.wait_for(client.close(), BOUND)
    assert not pid_alive(pid)


async def test_close_after_terminal_process_exited(wire: tuple[DapClient, Peer]) -> None:
    # The debuggee finished on its own before close(): close must neither hang nor leave a zombie.
    client, peer = wire
    chunks: list[tuple[str, str]] = []
    client.terminal.sink = lambda category, text: chunks.append((category, text))
    peer.reverse_request("runInTerminal", {"args": ["python3", "-c", "print('hi from terminal')"]})
    pid = (await peer.receive())["body"]["processId"]
    await wait_for_output(chunks, "hi from terminal")
    await asyncio.wait_for(client.close(), BOUND)
    assert not pid_alive(pid)


# -- a real adapter process that dies ----------------------------------------------------------


async def test_adapter_process_exit_fails_pending_with_exit_code_and_stderr() -> None:
    transport = await spawn_stdio([sys.executable, "-c", "import sys; sys.stderr.write('boom'); sys.exit(3)"])
    client = DapClient(transport)
    events = collect_events(client)
    client.start()
    try:
        with pytest.raises(Failure) as info:
            await asyncio.wait_for(client.request("initialize", {"adapterID": "x"}, timeout=30), BOUND)
        assert coded(info.value).code == ErrorCode.ADAPTER_FAILED
        assert "code 3" in info.value.message
        assert "boom" in info.value.message
        assert client.closed
        assert [name for name, _ in events] == ["_closed"]
    finally:
        await asyncio.wait_for(client.close(), BOUND)
    assert transport.process is not None and transport.process.returncode == 3


async def test_spawn_stdio_missing_executable() -> None:
    with pytest.raises(Failure) as info:
        await spawn_stdio(["/nonexistent/dap2mcp-no-such-adapter", "--stdio"])
    assert coded(info.value).code == ErrorCode.ADAPTER_NOT_FOUND
    assert "dap2mcp-no-such-adapter" in info.value.message


async def test_a_trace_numbers_each_connection_and_says_why_it_closed(tmp_path, monkeypatch) -> None:
    """A program with child processes has a connection per process: the trace tells them apart and notes each
    one's end (the connection that an adapter's crash closed names its exit code and stderr)."""
    from dap2mcp.dap.trace import TRACE_ENV

    trace = tmp_path / "trace.jsonl"
    monkeypatch.setenv(TRACE_ENV, str(trace))
    clients = []
    for _ in range(2):
        client_sock, peer_sock = socket.socketpair()
        _, writer = await asyncio.open_connection(sock=client_sock)
        incoming = asyncio.StreamReader()
        client = DapClient(Transport(reader=incoming, writer=writer))
        client.start()
        clients.append((client, incoming, peer_sock))
    for client, incoming, _ in clients:
        client.send("threads")
        incoming.feed_data(encode({"seq": 1, "type": "event", "event": "initialized"}))
    await asyncio.sleep(0.05)
    clients[1][1].feed_eof()
    await asyncio.wait_for(clients[1][0].wait_closed(), BOUND)
    for client, _, peer_sock in clients:
        await asyncio.wait_for(client.close(), BOUND)
        peer_sock.close()
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    first, second = sorted({line["link"] for line in lines})
    assert [(line["dir"], line["link"] == first) for line in lines if line["dir"] != "closed"].count(
        ("sent", True)) == 1
    closed = {line["link"]: line["message"]["reason"] for line in lines if line["dir"] == "closed"}
    assert closed[second].startswith("adapter closed the connection") and closed[first] == "client closed the connection"
    assert {line["link"] for line in lines if line["dir"] == "received"} == {first, second}
