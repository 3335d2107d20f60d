"""The stdio transport itself, spoken to line by line: what an SDK client never sends."""

from __future__ import annotations

import json
import os
import pty
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from dap2mcp import processes, reaper

from conftest import cmdline_of

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
CALL = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "context", "arguments": {}}}


def _lines(*messages: object) -> bytes:
    return b"".join((m if isinstance(m, bytes) else json.dumps(m).encode()) + b"\n" for m in messages)


def _answers(stdout: bytes) -> dict[int, dict]:
    """Every line on the channel must be JSON-RPC; the answers by id."""
    messages = [json.loads(line) for line in stdout.splitlines() if line.strip()]
    assert all(m.get("jsonrpc") == "2.0" for m in messages), messages
    return {m["id"]: m for m in messages if "id" in m}


SERVE = [sys.executable, "-m", "dap2mcp", "serve"]
PROGRAMS = Path(__file__).parents[1] / "programs"
SERVER_ENDS = 30
"""A hang guard for the server's end: it ends within a second of its input's end or a signal."""
STARTS = 90
"""A hang guard for a program's start under the server: 1 to 5 s (a C or Go build first, cached after)."""


def _debug(program: str, timeout: float, request_id: int = 4) -> dict:
    """A `debug` call of one of the test programs, as a JSON-RPC request."""
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": "debug", "arguments": {"mode": "source", "path": str(PROGRAMS / program),
                                                      "timeout": timeout}}}


def _outliving(family: list[psutil.Process], within: float = 30.0) -> list[psutil.Process]:
    """Those of `family` still running after `within` seconds (a hang guard: they end within 2 s, the orphan
    guard's round after a SIGKILL of the server)."""
    deadline = time.monotonic() + within
    while (alive := [p for p in family if processes._running(p)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


def test_bad_lines_on_the_pipe_are_answered_and_the_server_goes_on():
    server = subprocess.Popen(SERVE, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        hostile = (b"this is not json", b"\xff\xfe{", {"id": 9, "method": "ping"},  # no "jsonrpc": no answer owed
                   {"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"},  # an id that cannot be one
                   {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": [1]})
        server.stdin.write(_lines(INIT, INITIALIZED, *hostile))
        server.stdin.flush()
        first = server.stdout.readline()  # serving, however long the imports took
        time.sleep(0.5)
        fds = {n: os.readlink(f"/proc/{server.pid}/fd/{n}") for n in (0, 1, 2)}
        server.stdin.write(_lines(LIST, CALL))
        server.stdin.close()  # at once: what was asked is still answered
        out = first + server.stdout.read()
        server.wait(timeout=SERVER_ENDS)
    finally:
        server.kill()
    answers = _answers(out)
    assert "context" in {t["name"] for t in answers[2]["result"]["tools"]}
    assert answers[3]["result"]["structuredContent"]["error"]["code"] == "NO_SESSION"
    assert server.returncode == 0, "stdin closing ends the server cleanly"
    # while serving, a stray read by the server or a child gets EOF and a stray write goes to stderr
    assert fds[0] == os.devnull and fds[1] == fds[2]


def test_files_as_stdin_and_stdout_get_every_answer(tmp_path):
    requests, replies = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    requests.write_bytes(_lines(INIT, INITIALIZED, LIST, CALL))
    with requests.open("rb") as stdin, replies.open("wb") as stdout:
        done = subprocess.run(SERVE, stdin=stdin, stdout=stdout,
                              stderr=subprocess.PIPE, timeout=SERVER_ENDS * 2)  # imports, then answers at once
    assert done.returncode == 0, done.stderr[-2000:]
    answers = _answers(replies.read_bytes())
    assert len(answers[2]["result"]["tools"]) >= 13
    assert answers[3]["result"]["structuredContent"]["error"]["code"] == "NO_SESSION"


def test_end_of_input_waits_for_a_slow_call_then_ends_everything():
    debug = _debug("spin.py", timeout=2)
    server = subprocess.Popen(SERVE, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        server.stdin.write(_lines(INIT, INITIALIZED, debug))
        server.stdin.close()  # the debug call has barely begun
        out = server.stdout.read()
        server.wait(timeout=SERVER_ENDS)
        family = psutil.Process().children(recursive=True)
    finally:
        server.kill()
    answer = _answers(out)[4]["result"]["structuredContent"]
    assert answer["success"] and answer["state"] == "running"  # the program spins past the 2 s timeout
    assert server.returncode == 0 and not family, f"left behind: {family}"


@pytest.mark.parametrize("program", ["spin.py", "ticker.c", "ticker_go"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_a_signal_mid_call_ends_the_server_and_everything_it_ran(program, sig):
    """The MCP stdio shutdown ends with SIGTERM (then SIGKILL). A native or Go program is traced by its
    adapter: were the server to die at once, the adapter would follow it (parent-death signal) and the
    program, untraced, would run on. SIGTERM is handled; after SIGKILL the orphan guard ends it."""
    debug = _debug(program, timeout=1)
    wait = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "continue", "arguments": {"timeout": 120}}}
    server = subprocess.Popen(SERVE, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        server.stdin.write(_lines(INIT, INITIALIZED, debug, wait))
        server.stdin.flush()
        deadline = time.monotonic() + STARTS
        while len(family := psutil.Process(server.pid).children(recursive=True)) < 2:  # adapter and program
            assert time.monotonic() < deadline, "the program never started"
            time.sleep(0.2)
        time.sleep(1.5)  # `continue` is waiting now
        server.send_signal(sig)
        assert server.wait(timeout=SERVER_ENDS) == (-signal.SIGKILL if sig == signal.SIGKILL else 0)
    finally:
        server.kill()
    assert not (alive := _outliving(family)), f"left behind: {alive}"


def test_what_the_program_starts_later_dies_with_a_killed_server_too():
    """The orphan guard gets the processes there at the end of the handshake, and those the program
    starts afterwards when the session next looks for them. (A native program, traced, is only
    detached when its adapter dies with the server; so is what it started.)"""
    debug = _debug("forks_later.c", timeout=1)
    server = subprocess.Popen(SERVE, stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        server.stdin.write(_lines(INIT, INITIALIZED, debug))
        server.stdin.flush()
        deadline = time.monotonic() + STARTS
        while not (late := [p for p in psutil.Process(server.pid).children(recursive=True)
                            if cmdline_of(p) == ["sleep", "301"]]):
            assert time.monotonic() < deadline, "the program never started its child"
            time.sleep(0.2)
        time.sleep(2 * reaper.GUARD_EVERY + 1)  # the session has looked again since, even on a busy machine
        server.kill()
        server.wait(timeout=SERVER_ENDS)
    finally:
        server.kill()
    alive = _outliving(late)
    for p in alive:
        p.kill()
    assert not alive, f"left behind: {alive}"


@pytest.mark.parametrize("cancelled_as", ["11", "011"])
def test_a_request_cancelled_by_a_string_id_is_not_waited_for(cancelled_as):
    """The SDK takes 11, "11" and "011" for the same request, and answers a cancelled one with nothing.
    Not waited for: the call would run its 600 s, and the end of input waits for calls still running; the
    server's 60 s to end is a hang guard (it ends in a few seconds)."""
    slow = _debug("spin.py", timeout=600, request_id=11)
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": cancelled_as}}
    server = subprocess.Popen(SERVE, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        server.stdin.write(_lines(INIT, INITIALIZED, slow))
        server.stdin.flush()
        deadline = time.monotonic() + STARTS
        while len(family := psutil.Process(server.pid).children(recursive=True)) < 2:  # the call is under way
            assert time.monotonic() < deadline, "the program never started"
            time.sleep(0.2)
        out, _ = server.communicate(_lines(LIST, cancel), timeout=SERVER_ENDS * 2)  # then the end of input
        assert server.returncode == 0
    finally:
        server.kill()
    answers = _answers(out)
    assert sorted(answers) == [1, 2], answers  # the cancelled call got neither a result nor an error
    assert answers[2]["result"]["tools"]  # while a request after it was answered
    assert not (alive := _outliving(family)), f"left behind: {alive}"


def test_a_client_that_stops_reading_ends_the_server_and_its_session(tmp_path):
    """A client whose read end of our stdout is closed can never be answered again, even with our stdin
    still open: the server stops serving as it does on SIGTERM (session ended, programs reaped), without
    a traceback, instead of serving on into a broken pipe."""
    debug = _debug("spin.py", timeout=1)
    wait = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "continue", "arguments": {"timeout": 120}}}
    replies, ours = os.pipe()
    errors = tmp_path / "stderr"
    with errors.open("wb") as sink:
        server = subprocess.Popen(SERVE, stdin=subprocess.PIPE, stdout=ours,
                                  stderr=sink)
    os.close(ours)
    try:
        server.stdin.write(_lines(INIT, INITIALIZED, debug))
        server.stdin.flush()
        with os.fdopen(replies, "rb") as reading:
            while (answer := json.loads(reading.readline())).get("id") != 4:
                pass
            assert answer["result"]["structuredContent"].get("state") == "running", answer
            server.stdin.write(_lines(wait))
            server.stdin.flush()
            time.sleep(1)  # `continue` is waiting now
            family = psutil.Process(server.pid).children(recursive=True)
            assert len(family) >= 2, family  # the adapter and the program
        assert server.wait(timeout=SERVER_ENDS) == 0  # stdin is still open
        err = errors.read_text()
    finally:
        server.kill()
    assert "Traceback" not in err, err[-3000:]
    assert not (alive := _outliving(family)), f"left behind: {alive}"


def test_one_socket_as_stdin_and_stdout_is_served():
    """socat EXEC:, inetd and systemd socket activation hand the server one socket as fds 0 and 1."""
    ours, theirs = socket.socketpair()
    server = subprocess.Popen(SERVE, stdin=theirs, stdout=theirs,
                              stderr=subprocess.DEVNULL)
    theirs.close()
    try:
        ours.sendall(_lines(INIT, INITIALIZED, LIST, CALL))
        ours.shutdown(socket.SHUT_WR)  # end of input: what was asked is still answered
        ours.settimeout(60)
        out = b""
        while chunk := ours.recv(1 << 16):
            out += chunk
        assert server.wait(timeout=SERVER_ENDS) == 0
    finally:
        server.kill()
        ours.close()
    answers = _answers(out)
    assert len(answers[2]["result"]["tools"]) >= 13
    assert answers[3]["result"]["structuredContent"]["error"]["code"] == "NO_SESSION"


def test_answers_buffered_at_the_end_reach_a_client_that_reads_late():
    """Answers that fill the pipe, input ended at once, and the client reads only seconds later: every
    answer arrives whole (the server waits, a bounded while, for what it still holds to drain)."""
    asks = [{"jsonrpc": "2.0", "id": 100 + i, "method": "tools/list"} for i in range(2)]
    server = subprocess.Popen(SERVE, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        server.stdin.write(_lines(INIT, INITIALIZED, *asks))
        server.stdin.close()
        time.sleep(3)
        out = server.stdout.read()
        assert server.wait(timeout=SERVER_ENDS) == 0
    finally:
        server.kill()
    assert len(out) > 65536, "the answers must outgrow a pipe's buffer for this test to mean anything"
    answers = _answers(out)
    assert sorted(answers) == [1, 100, 101]


def test_a_write_that_fails_not_because_the_client_left_is_an_error(tmp_path):
    """A full disk is not a client that went away: the server says so and exits non-zero."""
    requests = tmp_path / "in.jsonl"
    requests.write_bytes(_lines(INIT, INITIALIZED, LIST))
    with requests.open("rb") as stdin, open("/dev/full", "wb") as full:
        done = subprocess.run(SERVE, stdin=stdin, stdout=full,
                              stderr=subprocess.PIPE, timeout=SERVER_ENDS * 2)  # imports, then answers at once
    assert done.returncode == 1
    assert b"cannot write to the client" in done.stderr and b"Traceback" not in done.stderr, done.stderr[-2000:]


def test_a_terminal_as_stdin_does_not_keep_the_server_once_the_client_is_gone():
    """A terminal's read cannot be interrupted: the thread reading it must not hold the server at exit."""
    terminal, its_end = pty.openpty()
    replies, ours = os.pipe()
    server = subprocess.Popen(SERVE, stdin=its_end, stdout=ours,
                              stderr=subprocess.PIPE)
    os.close(its_end)
    os.close(ours)
    try:
        os.write(terminal, json.dumps(INIT).encode() + b"\n")
        with os.fdopen(replies, "rb") as reading:
            assert json.loads(reading.readline())["id"] == 1
            time.sleep(1)  # the server waits for the next line from the terminal
        assert server.wait(timeout=SERVER_ENDS) == 0  # nobody typed anything more
    finally:
        server.kill()
        os.close(terminal)
