"""Resource change notifications, for clients of both protocol versions.

A 2025-11-25 client subscribes per URI with `resources/subscribe`; a 2026-07-28 client opens a
`subscriptions/listen` stream, which the SDK serves from the bus given here. Either way the
session only says "something may have changed"; this module works out which resources really
did (by comparing cheap fingerprints of their content) and notifies each at most once per
window. A change is held briefly before it goes out, so the passing "running" of a quick step is
not announced on its own; after a notification the next waits until the window has passed, so
stepping as fast as possible never floods the client; and the last change is always notified.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from typing import Any

from mcp.server.subscriptions import InMemorySubscriptionBus, ResourcesListChanged, ResourceUpdated, ServerEvent
from mcp.types import EmptyResult, SubscribeRequestParams, UnsubscribeRequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from .sdk import connection_of

log = logging.getLogger(__name__)

WINDOW = 0.3
SETTLE = 0.05


class ListenBus(InMemorySubscriptionBus):
    """The SDK's in-process bus, counting the `subscriptions/listen` streams open on it."""

    def __init__(self, opened: Callable[[], None]) -> None:
        super().__init__()
        self.streams = 0
        self._opened = opened

    def subscribe(self, listener: Callable[[ServerEvent], None]) -> Callable[[], None]:
        if self.streams == 0:
            self._opened()
        self.streams += 1
        unsubscribe = super().subscribe(listener)
        done = False

        def release() -> None:
            nonlocal done
            if not done:
                done = True
                self.streams -= 1
            unsubscribe()
        return release


class ResourceUpdates:
    def __init__(self, uris: Callable[[], tuple[str, ...]], fingerprint: Callable[[str], object],
                 listed: Callable[[], object],
                 window: float = WINDOW, settle: float = SETTLE) -> None:
        self._uris = uris
        self._fingerprint = fingerprint
        self._listed = listed
        self._window = window
        self._settle = settle
        self.bus = ListenBus(self._baseline)
        self._peers: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
        """2025-11-25 connections seen, with the URIs each subscribed to."""
        self._was_listed: object = listed()
        """What `listed` said when last compared: the resource list changed when it says otherwise."""
        self._seen: dict[str, object] = {}
        """Each resource's fingerprint when last compared."""
        self._sent_at: dict[str, float] = {}
        self._held: dict[str, asyncio.TimerHandle] = {}
        self._check_due = False
        self._sending: set[asyncio.Future[None]] = set()

    # -- who is listening --------------------------------------------------------------------

    def seen(self, session: Any) -> Any:
        """A request arrived on `session`: its 2025-11-25 connection gets list_changed from now on."""
        peer = connection_of(session)
        if peer is None or peer.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return None
        self._peers.setdefault(peer, set())
        return peer

    async def on_subscribe(self, ctx: Any, params: SubscribeRequestParams) -> EmptyResult:
        """Any URI is accepted, as a listen stream honors any: one this server never publishes never fires."""
        if not self._watched():
            self._baseline()
        peer = self.seen(ctx.session)
        if peer is not None:
            self._peers[peer].add(params.uri)
        return EmptyResult()

    async def on_unsubscribe(self, ctx: Any, params: UnsubscribeRequestParams) -> EmptyResult:
        peer = self.seen(ctx.session)
        if peer is not None:
            self._peers[peer].discard(params.uri)
        return EmptyResult()

    def _watched(self) -> bool:
        return self.bus.streams > 0 or any(self._peers.values())

    def _baseline(self) -> None:
        """Someone starts watching: what resources hold now is what they know."""
        for uri in self._uris():
            if uri not in self._held:
                self._seen[uri] = self._fingerprint(uri)

    # -- what changed ------------------------------------------------------------------------

    def poke(self) -> None:
        """Something may have changed; compare once this turn of the event loop is over."""
        if not self._check_due:
            self._check_due = True
            asyncio.get_running_loop().call_soon(self._check)

    def _check(self) -> None:
        self._check_due = False
        listed = self._listed()
        if listed != self._was_listed:
            self._was_listed = listed
            self._publish(ResourcesListChanged())
        if not self._watched():
            return
        loop = asyncio.get_running_loop()
        for uri in dict.fromkeys([*self._uris(), *self._seen]):  # one gone since (a session's) is told once more
            if uri in self._held:
                continue  # a notification is due anyway; it goes out after whatever happens until then
            content = self._fingerprint(uri)
            if content == self._seen.get(uri):
                continue
            self._seen[uri] = content
            now = loop.time()
            wait = max(self._settle, self._sent_at.get(uri, now - self._window) + self._window - now)
            self._held[uri] = loop.call_later(wait, self._release, uri)

    def _release(self, uri: str) -> None:
        """Sent even if the content is back to what the last notification announced: a client may have
        read it in between, so only a notification after the last change lets it see the final state."""
        del self._held[uri]
        self._seen[uri] = self._fingerprint(uri)
        if self._seen[uri] is None and uri not in self._uris():  # told it is gone: not compared again
            del self._seen[uri]
        self._sent_at[uri] = now = asyncio.get_running_loop().time()
        log.debug("notifying %s at %.6f", uri, now)  # the clock the window is kept by, for whoever checks it
        self._publish(ResourceUpdated(uri))

    def _publish(self, event: ResourcesListChanged | ResourceUpdated) -> None:
        self._send(self.bus.publish(event))
        for peer, uris in list(self._peers.items()):
            if isinstance(event, ResourcesListChanged):
                self._send(peer.send_resource_list_changed())
            elif event.uri in uris:
                self._send(peer.send_resource_updated(event.uri))

    def _send(self, sending: Any) -> None:
        task = asyncio.ensure_future(_quietly(sending))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def close(self) -> None:
        for handle in self._held.values():
            handle.cancel()
        self._held.clear()


async def _quietly(sending: Any) -> None:
    try:
        await sending
    except Exception as exc:  # a client that went away must not break the session
        log.debug("resource notification not sent: %r", exc)
