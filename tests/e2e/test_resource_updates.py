"""Resource notifications over stdio and HTTP: `resources/subscribe` on 2025-11-25,
`subscriptions/listen` on 2026-07-28; list_changed on session start and end; updates only for
watched resources whose content changed, at most one per 300 ms window per resource, and always
one after the last change.

No assertion here rests on when the client received a notification: on a busy machine delivery lags
by any amount. The window is checked on the server's own clock (the times its notifier logs, with the
server in this process), and over the real transports by what load cannot change: how many arrived
for how long the stepping took, their order, and what the resource says at the end."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import warnings
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import pytest
from mcp import Client, MCPDeprecationWarning
from mcp.server.subscriptions import ResourcesListChanged, ResourceUpdated
from mcp.types import ResourceListChangedNotification, ResourceUpdatedNotification

from dap2mcp.server import build_server

from conftest import PROGRAMS, Endpoint, Tools, marker

COUNTER = PROGRAMS / "counter.py"
MODES = ["legacy", "2026-07-28"]
WINDOW = 0.3
LIST = "list_changed"


class Inbox:
    """Every resource notification received, as (arrival time, uri or LIST)."""

    def __init__(self) -> None:
        self.received: list[tuple[float, str]] = []

    def note(self, what: str) -> None:
        self.received.append((time.monotonic(), what))

    async def on_message(self, message: Any) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            self.note(message.params.uri)
        elif isinstance(message, ResourceListChangedNotification):
            self.note(LIST)

    def of(self, what: str, since: float = 0.0) -> list[float]:
        return [at for at, item in self.received if item == what and at >= since]

    async def settle(self, quiet: float = 1.2) -> float:
        """Wait until nothing has arrived for `quiet` seconds (four windows: a notification is held at most
        one, the rest is room for a slow delivery); the time from which to count anew."""
        while True:
            last = self.received[-1][0] if self.received else 0.0
            await asyncio.sleep(quiet)
            if not self.received or self.received[-1][0] == last:
                return time.monotonic()


class InProcess:
    """The server in this process, where its log (and so its own clock) can be read."""

    def client(self, mode: str, **options: Any) -> Client:
        return Client(build_server(), mode=mode, **options)


@asynccontextmanager
async def watching(endpoint: Endpoint | InProcess, mode: str, uris: Sequence[str]) -> AsyncIterator[tuple[Client, Tools, Inbox]]:
    """A client watching list changes and `uris`, the way its protocol version does it."""
    inbox = Inbox()
    handler = inbox.on_message if mode == "legacy" else None  # 2026-07-28: the stream's events, not their tee
    async with endpoint.client(mode, message_handler=handler) as client:
        if mode == "legacy":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                for uri in uris:
                    await client.subscribe_resource(uri)
            yield client, Tools(client), inbox
            return
        async with client.listen(resources_list_changed=True, resource_subscriptions=uris) as stream:
            assert stream.honored.resources_list_changed and set(stream.honored.resource_subscriptions or []) == set(uris)

            async def pump() -> None:
                async for event in stream:
                    if isinstance(event, ResourceUpdated):
                        inbox.note(event.uri)
                    elif isinstance(event, ResourcesListChanged):
                        inbox.note(LIST)
            reader = asyncio.ensure_future(pump())
            try:
                yield client, Tools(client), inbox
            finally:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reader


async def start(tools: Tools, rounds: int = 200) -> None:
    await tools.ok("debug", mode="source", path=str(COUNTER), args=[str(rounds)],
                   breakpoints=[{"file": str(COUNTER), "line": marker(COUNTER, "loop")}])


@pytest.mark.parametrize("mode", MODES)
async def test_capabilities_advertise_subscribe_and_list_changed(mode: str, endpoint: Endpoint):
    async with endpoint.client("legacy" if mode == "legacy" else "auto") as client:
        assert client.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
        resources = client.server_capabilities.resources
        assert resources is not None and resources.subscribe is True and resources.list_changed is True


@pytest.mark.parametrize("mode", MODES)
async def test_list_changed_when_a_session_starts_and_ends(mode: str, endpoint: Endpoint):
    async with watching(endpoint, mode, []) as (client, tools, inbox):
        await start(tools)
        await inbox.settle()
        assert len(inbox.of(LIST)) == 1
        assert (await client.list_resources()).resources
        before = time.monotonic()
        await tools.ok("stop")
        await inbox.settle()
        assert len(inbox.of(LIST, before)) == 1
        assert (await client.list_resources()).resources == []
        assert not [item for _, item in inbox.received if item != LIST]  # nothing subscribed, nothing updated


@pytest.mark.parametrize("mode", MODES)
async def test_only_watched_resources_are_updated_and_only_when_they_changed(mode: str, endpoint: Endpoint):
    async with watching(endpoint, mode, ["debugger://session", "debugger://breakpoints"]) as (client, tools, inbox):
        await start(tools)
        since = await inbox.settle()

        assert (await tools.ok("evaluate", expression="1 + 1"))["value"] == "2"
        await tools.ok("context")
        assert await inbox.settle() and inbox.of("debugger://session", since) == []  # nothing it shows changed

        await tools.ok("breakpoint", file=str(COUNTER), line=marker(COUNTER, "never"))
        await inbox.settle()
        assert len(inbox.of("debugger://breakpoints", since)) == 1 and inbox.of("debugger://session", since) == []

        since = time.monotonic()
        await tools.ok("step", mode="over")
        await inbox.settle()
        assert 1 <= len(inbox.of("debugger://session", since)) <= 2  # "running" is announced only if it lasted
        assert inbox.of("debugger://breakpoints", since) == []  # no breakpoint was hit by the step
        assert not [item for at, item in inbox.received if item in ("debugger://threads", "debugger://output")]

        since = time.monotonic()
        assert (await tools.ok("continue"))["state"] == "paused"  # the loop breakpoint again: its count changes
        await inbox.settle()
        assert inbox.of("debugger://session", since) and len(inbox.of("debugger://breakpoints", since)) == 1

        if mode == "legacy":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await client.unsubscribe_resource("debugger://session")
                await client.subscribe_resource("test://not-ours")  # accepted, as a listen stream would; never fires
            since = time.monotonic()
            await tools.ok("step", mode="over")
            await inbox.settle()
            assert inbox.of("debugger://session", since) == [] and inbox.of("test://not-ours") == []


async def step_fast(tools: Tools, times: int = 50) -> tuple[float, dict[str, Any]]:
    """Step `times` times as fast as the server answers; when the last step was asked for, and its stop."""
    for turn in range(times):
        began = time.monotonic()
        step = await tools.ok("step", mode="over")
        assert step["state"] == "paused" and step["location"]["function"] == "main", turn
    return began, step


@pytest.mark.parametrize("mode", MODES)
async def test_fast_stepping_is_debounced_and_the_last_step_always_notified(mode: str, endpoint: Endpoint):
    """Load can only stretch the stepping and the delivery, which can only loosen these bounds: they hold on a
    busy machine, and catch a lost debounce (one notification a step, 50, where the window allows ~10)."""
    async with watching(endpoint, mode, ["debugger://session", "debugger://threads"]) as (client, tools, inbox):
        await start(tools)
        since = await inbox.settle()
        last_began, step = await step_fast(tools)
        finished = time.monotonic()
        await inbox.settle()
        for uri in ("debugger://session", "debugger://threads"):
            arrivals = inbox.of(uri, since)
            assert arrivals, uri
            # sent a window apart on the server's clock while the steps ran, plus the one held past the last
            assert len(arrivals) <= (finished - since) / WINDOW + 2, (uri, len(arrivals), finished - since)
            assert arrivals[-1] > last_began, uri  # announced after the last step's change, not only before
        final = await client.read_resource("debugger://session")
        assert f'"line":{step["location"]["line"]}' in final.contents[0].text  # and it was the last step's stop


@pytest.mark.parametrize("mode", MODES)
async def test_notifications_of_a_resource_are_a_window_apart_on_the_servers_clock(
        mode: str, caplog: pytest.LogCaptureFixture):
    """The window itself, on the times the notifier keeps it by (it logs each), not on when a client
    happened to receive them."""
    caplog.set_level(logging.DEBUG, logger="dap2mcp.server.updates")
    uris = ["debugger://session", "debugger://threads"]
    async with watching(InProcess(), mode, uris) as (client, tools, inbox):
        await start(tools)
        since = await inbox.settle()
        caplog.clear()
        last_began, _ = await step_fast(tools)
        await inbox.settle()
        sent = [record.args for record in caplog.records if record.name == "dap2mcp.server.updates"
                and record.getMessage().startswith("notifying ")]
    for uri in uris:
        times = [at for what, at in sent if what == uri]  # type: ignore[misc]
        assert len(times) >= 2, (uri, times)  # 50 steps take longer than a window even on a fast machine
        gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
        assert min(gaps) >= WINDOW - 0.001, (uri, gaps)  # asyncio runs a timer up to its clock's resolution early
        assert times[-1] > last_began, uri  # the server's clock is this process's: the last change was announced
        assert len(inbox.of(uri, since)) == len(times), uri  # and each one sent was delivered


@pytest.mark.parametrize("mode", MODES)
async def test_a_sessions_own_documents_are_notified_by_their_uri_and_when_it_ends(mode: str, endpoint: Endpoint):
    """Two sessions: a stop in the second changes its documents only, and stopping the first (not the
    current one) is told to whoever watches its document."""
    first, second = "debugger://sessions/s1/session", "debugger://sessions/s2/session"
    async with watching(endpoint, mode, [first, second, "debugger://sessions"]) as (client, tools, inbox):
        await start(tools)
        await start(tools)
        since = await inbox.settle()
        await tools.ok("continue", sessionId="s2")
        await inbox.settle()
        assert inbox.of(second, since) and inbox.of(first, since) == []
        since = time.monotonic()
        await tools.ok("stop", sessionId="s1")
        await inbox.settle()
        assert len(inbox.of(first, since)) == 1 and inbox.of("debugger://sessions", since)
        assert inbox.of(second, since) == []
        await tools.ok("stop", all=True)
