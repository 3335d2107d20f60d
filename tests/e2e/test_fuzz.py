"""Hostile input, generated: every tool's arguments and source URIs, thousands of calls, one server.

hypothesis draws each call from the tool's own input schema, each argument either a value of a
hostile kind (wrong types, huge and unicode strings, path tricks, negative and huge numbers) or left
out, plus unknown keys. The client is the SDK's, in this process (so 5,000 calls fit a CI run);
every answer must be the error envelope or a success, never a traceback, and the server must keep
answering. A real debug session (debugpy on a spinning program) is kept open so that tools which need
a paused program get one; `timeout` values that would be valid are kept short so that a `continue`
on the spinning program cannot hold the run up.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import threading
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.shared.exceptions import MCPError

from dap2mcp.errors import ErrorCode
from dap2mcp.server import build_server

from conftest import PROGRAMS, reads_as

CALLS = int(os.environ.get("DAP2MCP_FUZZ_CALLS", "5000"))  # the floor; lower only to debug
SPIN = PROGRAMS / "spin.py"
CODES = {code.value for code in ErrorCode}

TRICKY_PATHS = ["", ".", "/", "..", "../../etc/passwd", "/etc/passwd", "/dev/zero", "/dev/stdin", "/proc/self/mem",
                "a\x00b", "%2e%2e/%2e%2e/etc/passwd", "~", "~root/.bashrc", "C:\\Windows\\win.ini", "\\\\server\\share",
                "/" + "a" * 5000, "ünïcödé/ファイル.py", str(SPIN), str(SPIN) + "/", "/tmp", "/bin/true", "-m os"]
HOSTILE = st.one_of(
    st.none(), st.booleans(),
    st.integers(), st.sampled_from([0, -1, 2**31, 2**63, -(2**63), 10**30]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50), st.integers(1_000, 100_000).map(lambda n: "é\u202e" * n), st.sampled_from(TRICKY_PATHS),
    st.lists(st.integers() | st.text(max_size=10), max_size=5),
    st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8) | st.none(), max_size=4),
)
SHORT_TIMEOUT = st.floats(min_value=0.01, max_value=0.3)
LIMIT = 900
"""A hang guard for the whole run, not a measure: the 5,000 calls take about a minute alone and three or
four on a machine busy with other work (1,000 took 41 s at a load of 6 on 2 cores); pytest's default
120 s cut them off there. Shorter `timeout` values would not help: waiting out timeouts is not where
the time goes."""


class Server:
    """One in-process server and its client, living in one task on an event loop of its own (a thread):
    the SDK's client must be left from the task that entered it, so every call is handed to that task."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.jobs: asyncio.Queue[Any] = asyncio.Queue()
        ready: concurrent.futures.Future[Client] = concurrent.futures.Future()
        self.owner = asyncio.run_coroutine_threadsafe(self._own(ready), self.loop)
        self.client = ready.result(60)
        self.tools = {t.name: t for t in self.run(lambda: self.client.list_tools()).tools}
        self.calls = 0

    async def _own(self, ready: concurrent.futures.Future[Client]) -> None:
        async with Client(build_server()) as client:
            ready.set_result(client)
            while (job := await self.jobs.get()) is not None:
                make, done = job
                try:
                    done.set_result(await make())
                except BaseException as exc:  # handed back to the caller, who decides
                    done.set_exception(exc)

    def run(self, make: Any, timeout: float = 60) -> Any:
        done: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.loop.call_soon_threadsafe(self.jobs.put_nowait, (make, done))
        return done.result(timeout)

    def call(self, name: str, arguments: dict[str, Any], timeout: float = 60) -> Any:
        return self.run(lambda: self.client.call_tool(name, arguments), timeout)

    def paused_session(self) -> None:
        self.call("debug", {"mode": "source", "path": str(SPIN), "stopOnEntry": True})

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.call("stop", {}, timeout=20)
        self.loop.call_soon_threadsafe(self.jobs.put_nowait, None)
        self.owner.result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture(scope="module")
def server() -> Any:
    errors: list[logging.LogRecord] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.ERROR or record.exc_info:
                errors.append(record)

    catcher = Catch()
    logging.getLogger().addHandler(catcher)
    instance = Server()
    instance.paused_session()
    try:
        yield instance
    finally:
        instance.close()
        logging.getLogger().removeHandler(catcher)
    assert not errors, [f"{r.name}: {r.getMessage()}" for r in errors[:5]]


def short_if_valid(value: Any) -> Any:
    """A hostile value that is a valid timeout all the same (1234.5, or "600", which pydantic takes for a
    number) would make a `wait` or `continue` on the spinning program wait past the call's own limit."""
    try:
        seconds = float(value) if isinstance(value, int | float | str) and not isinstance(value, bool) else None
    except ValueError:
        seconds = None
    return 0.3 if seconds is not None and 0.3 < seconds <= 3600 else value


def arguments_for(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    names = schema.get("properties", {})
    # a missing timeout means the 30 s default, which a spinning program waits out: always send a short
    # one, or a hostile one, which is refused at once unless it happens to be a valid long one
    required = {"timeout": SHORT_TIMEOUT | HOSTILE.map(short_if_valid)} if "timeout" in names else {}
    known = st.fixed_dictionaries(required, optional={name: HOSTILE for name in names if name != "timeout"})
    unknown = st.dictionaries(st.text(min_size=1, max_size=12), HOSTILE, max_size=2)
    return st.tuples(known, unknown).map(lambda both: {**both[1], **both[0]})


def call_strategy(tools: dict[str, Any]) -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
    per_tool = [st.tuples(st.just(name), arguments_for(tool.input_schema)) for name, tool in sorted(tools.items())]
    uris = st.tuples(st.just("<read>"), st.fixed_dictionaries({"uri": st.one_of(
        st.sampled_from(TRICKY_PATHS).map(lambda p: "debugger://source/" + p),
        st.text(max_size=40).map(lambda p: "debugger://source/" + p),
        st.sampled_from(["debugger://session", "debugger://threads", "debugger://breakpoints",
                         "debugger://nothing", "file:///etc/passwd"]))}))
    return st.one_of(*per_tool, uris)


def check_answer(name: str, result: Any) -> None:
    data = result.structured_content
    assert isinstance(data, dict), f"{name}: no structured content: {result.content}"
    assert data.get("success") is (not result.is_error), f"{name}: envelope and isError disagree: {data}"
    text = " ".join(getattr(c, "text", "") for c in result.content)
    assert "Traceback" not in text, text[:500]
    assert reads_as(text, data, name), f"{name}: the text is not the structured content's lean view: {text[:500]}"
    if not data["success"]:
        assert data["error"]["code"] in CODES, data
        assert data["error"]["message"] and "Traceback" not in data["error"]["message"], data


@pytest.mark.timeout(LIMIT)
def test_thousands_of_hostile_calls_get_the_envelope_and_leave_the_server_answering(server: Server) -> None:
    @settings(max_examples=CALLS, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(call=call_strategy(server.tools))
    def one(call: tuple[str, dict[str, Any]]) -> None:
        name, arguments = call
        server.calls += 1
        if server.calls % 250 == 0:
            server.paused_session()  # a `stop` or a bad `debug` may have ended it; keep the paused paths in play
        if name == "<read>":
            try:
                server.run(lambda: server.client.read_resource(arguments["uri"]))
            except MCPError as exc:
                assert exc.error.message and "Traceback" not in exc.error.message
            return
        check_answer(name, server.call(name, arguments))

    one()
    assert server.calls >= CALLS
    # still answering, and still debugging
    assert server.run(lambda: server.client.list_tools()).tools
    server.call("stop", {"all": True})  # the sessions the calls started (at most 8 at once)
    ctx = server.call("debug", {"mode": "source", "path": str(SPIN), "stopOnEntry": True})
    assert ctx.structured_content["state"] == "paused", ctx.structured_content


def test_an_adapter_traceback_becomes_its_last_line(server: Server) -> None:
    """debugpy answers a bad expression with its own traceback; the agent gets the error itself."""
    server.paused_session()
    data = server.call("evaluate", {"expression": "1 +* 2"}).structured_content
    assert data["success"] is False and data["error"]["code"] == "ADAPTER_ERROR", data
    message = data["error"]["message"]
    assert "SyntaxError" in message and "Traceback" not in message and "pydevd" not in message, message
