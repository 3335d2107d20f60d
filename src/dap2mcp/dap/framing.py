"""Content-Length framing of DAP messages (the base protocol: a header, a blank line, JSON)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from ..text import valid_unicode

Message = dict[str, Any]

_HEADER_LINE = re.compile(rb"^[A-Za-z][A-Za-z0-9-]*:[^\r\n]*\r\n$")
_MAX_HEADER = 8192
_MAX_BODY = 64 * 1024 * 1024
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class FramingError(Exception):
    """The peer sent bytes that are not a DAP message; the stream cannot be trusted after this."""


def encode(message: Message) -> bytes:
    body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


async def read_message(reader: asyncio.StreamReader) -> Message | None:
    """Read one message; None at a clean end of stream (between messages)."""
    header = b""
    while True:  # line by line, so a peer that is not a debug adapter is caught at its first line
        try:
            line = await reader.readuntil(b"\r\n")
        except asyncio.IncompleteReadError as exc:
            if exc.partial.strip() or header:
                raise FramingError(f"stream ended inside a message header: {(header + exc.partial)[:200]!r}") from exc
            return None
        except asyncio.LimitOverrunError as exc:
            raise FramingError("message header too long") from exc
        if line == b"\r\n":
            break
        if not _HEADER_LINE.match(line) or len(header) > _MAX_HEADER:
            raise FramingError(f"not a DAP message header (is the peer a debug adapter?): {line[:200]!r}")
        header += line
    length = _content_length(header)
    try:
        body = await reader.readexactly(length)
    except asyncio.IncompleteReadError as exc:
        raise FramingError(f"stream ended after {len(exc.partial)} of {length} body bytes") from exc
    try:
        message = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FramingError(f"message body is not JSON: {exc}") from exc
    if not isinstance(message, dict):
        raise FramingError("message body is not a JSON object")
    if _SURROGATE_ESCAPE.search(body):
        message = valid_unicode(message)
    return message


def _content_length(header: bytes) -> int:
    for line in header.decode("ascii", "replace").split("\r\n"):
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            try:
                length = int(value.strip())
            except ValueError:
                break
            if 0 <= length <= _MAX_BODY:
                return length
            break
    raise FramingError(f"bad or missing Content-Length in header {header[:200]!r}")
