"""Futures whose failure is read where they are awaited, or by nobody on purpose."""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

F = TypeVar("F", bound=asyncio.Future[Any])


def unlogged(future: F) -> F:
    """`future`, marked so that a failure nobody awaits is not logged as "exception never retrieved"
    when it is collected: a request sent ahead and then not needed, a late failure after a timeout."""
    future.add_done_callback(_retrieve)
    return future


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
