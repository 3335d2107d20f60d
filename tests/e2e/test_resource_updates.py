"""Resource notifications over stdio and HTTP: `resources/subscribe` on 2025-11-25,
`subscriptions/listen` on 2026-07-28; list_changed on session start and end; updates only for
watched resources whose content changed, at most one per 300 ms window per resource, and always
one after the last change."""

from __future__ import annotations

import asyncio
import contextlib
import time
import warnings
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import pytest
from mcp import Client, MCPDeprecationWarning
from mcp.server.subscriptions import ResourcesListChanged, ResourceUpdated
from mcp.types import ResourceListChangedNotification, ResourceUpdatedNotification

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

    async def settle(self, quiet: float = 0.8) -> float:
        """Wait until nothing has arrived for `quiet` seconds; the time from which to count anew."""
        while True:
            last = self.received[-1][0] if self.received else 0.0
            await asyncio.sleep(quiet)
            if not self.received or self.received[-1][0] == last:
                return time.monotonic()


@asynccontextmanager
async def watching(endpoint: Endpoint, mode: str, uris: Sequence[str]) -> AsyncIterator[tuple[Client, Tools, Inbox]]:
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


@pytest.mark.parametrize("mode", MODES)
async def test_fast_stepping_is_debounced_and_the_last_step_always_notified(mode: str, endpoint: Endpoint):
    async with watching(endpoint, mode, ["debugger://session", "debugger://threads"]) as (client, tools, inbox):
        await start(tools)
        since = await inbox.settle()
        started = []
        for _ in range(50):
            started.append(time.monotonic())
            step = await tools.ok("step", mode="over")
            assert step["state"] == "paused" and step["location"]["function"] == "main"
        finished = time.monotonic()
        await inbox.settle()
        for uri in ("debugger://session", "debugger://threads"):
            arrivals = inbox.of(uri, since)
            assert arrivals, uri
            gaps = [b - a for a, b in zip(arrivals, arrivals[1:], strict=False)]
            assert all(gap > WINDOW * 0.8 for gap in gaps), (uri, gaps)  # transport jitter aside, one per window
            assert len(arrivals) <= (finished - since) / WINDOW + 2, (uri, len(arrivals))
            assert arrivals[-1] > started[-1], uri  # the last step's change was notified, not only earlier ones
        final = await client.read_resource("debugger://session")
        assert f'"line":{step["location"]["line"]}' in final.contents[0].text
