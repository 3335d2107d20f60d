"""Unit tests for DAP Content-Length framing (`dap2mcp.dap.framing`).

The peer here is a bare `asyncio.StreamReader` fed bytes by the test: a scripted peer used only
at the wire level, to produce byte splits, interleavings and faults on demand. Tests against real
debug adapters live in tests/integration.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from dap2mcp.dap.framing import FramingError, encode, read_message


def reader_with(*chunks: bytes, eof: bool = True) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    for chunk in chunks:
        reader.feed_data(chunk)
    if eof:
        reader.feed_eof()
    return reader


def framed(body: bytes, *, extra_headers: bytes = b"") -> bytes:
    return extra_headers + b"Content-Length: %d\r\n\r\n" % len(body) + body


# -- encode / round trip -----------------------------------------------------------------------


def test_encode_header_counts_body_bytes() -> None:
    message = {"seq": 1, "type": "event", "event": "output", "body": {"output": "é✓"}}
    data = encode(message)
    header, sep, body = data.partition(b"\r\n\r\n")
    assert sep == b"\r\n\r\n"
    assert header == b"Content-Length: %d" % len(body)
    # Non-ASCII is sent as UTF-8, so bytes and characters differ.
    assert len(body) > len(body.decode("utf-8"))
    assert json.loads(body) == message


async def test_round_trip_ascii() -> None:
    message = {"seq": 7, "type": "request", "command": "threads", "arguments": {"a": [1, 2, None], "b": True}}
    assert await read_message(reader_with(encode(message))) == message


async def test_round_trip_non_ascii_utf8() -> None:
    message = {"seq": 2, "type": "event", "event": "output", "body": {"output": "héllo wörld ✓ 日本語 🐍\n"}}
    data = encode(message)
    body = data.partition(b"\r\n\r\n")[2]
    assert len(body) != len(json.dumps(message, separators=(",", ":"), ensure_ascii=False))
    reader = reader_with(data)
    assert await read_message(reader) == message
    # Exactly the declared bytes were consumed: nothing left over, clean EOF next.
    assert await read_message(reader) is None


async def test_non_ascii_from_foreign_encoder() -> None:
    # A peer that escapes nothing and counts bytes, written by hand rather than by encode().
    body = '{"seq":1,"type":"event","event":"output","body":{"output":"Grüße 🐍"}}'.encode()
    reader = reader_with(framed(body) + framed(b'{"seq":2,"type":"event","event":"x"}'))
    first = await read_message(reader)
    assert first is not None and first["body"]["output"] == "Grüße 🐍"
    second = await read_message(reader)
    assert second == {"seq": 2, "type": "event", "event": "x"}


# -- byte splits and coalescing ----------------------------------------------------------------


async def test_message_split_into_single_bytes() -> None:
    message = {"seq": 3, "type": "response", "request_seq": 1, "success": True, "body": {"text": "ünïcode 🐍"}}
    data = encode(message)
    reader = asyncio.StreamReader()
    task = asyncio.create_task(read_message(reader))
    for i in range(len(data)):
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert not task.done(), f"returned after only {i} of {len(data)} bytes"
        reader.feed_data(data[i : i + 1])
    assert await asyncio.wait_for(task, 10) == message  # a hang guard: the last byte completes it at once


async def test_two_messages_in_one_read() -> None:
    first = {"seq": 1, "type": "event", "event": "initialized"}
    second = {"seq": 2, "type": "response", "request_seq": 1, "success": True, "command": "initialize"}
    reader = reader_with(encode(first) + encode(second))
    assert await read_message(reader) == first
    assert await read_message(reader) == second
    assert await read_message(reader) is None


async def test_chunks_straddling_message_boundaries() -> None:
    messages = [{"seq": i, "type": "event", "event": "output", "body": {"output": "x" * i}} for i in range(1, 6)]
    data = b"".join(encode(m) for m in messages)
    # Cut the stream at awkward places: mid-header, mid-separator, mid-body.
    cuts = [0, 5, 17, 19, 40, 41, len(data) // 2, len(data) - 3, len(data)]
    reader = reader_with(*(data[a:b] for a, b in zip(cuts, cuts[1:], strict=False)))
    for message in messages:
        assert await read_message(reader) == message
    assert await read_message(reader) is None


# -- headers -----------------------------------------------------------------------------------


async def test_extra_headers_before_content_length() -> None:
    body = b'{"seq":1,"type":"event","event":"stopped"}'
    data = framed(body, extra_headers=b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n")
    assert await read_message(reader_with(data)) == {"seq": 1, "type": "event", "event": "stopped"}


async def test_header_name_case_and_spacing() -> None:
    body = b'{"seq":1}'
    data = b"content-length:%d\r\nX-Other: 1\r\n\r\n" % len(body) + body
    assert await read_message(reader_with(data)) == {"seq": 1}


async def test_zero_length_body_is_not_json() -> None:
    with pytest.raises(FramingError, match="not JSON"):
        await read_message(reader_with(b"Content-Length: 0\r\n\r\n"))


# -- end of stream -----------------------------------------------------------------------------


async def test_clean_eof_on_empty_stream() -> None:
    assert await read_message(reader_with()) is None


async def test_clean_eof_between_messages() -> None:
    reader = reader_with(encode({"seq": 1}))
    assert await read_message(reader) == {"seq": 1}
    assert await read_message(reader) is None
    assert await read_message(reader) is None


async def test_eof_mid_header() -> None:
    with pytest.raises(FramingError, match="header"):
        await read_message(reader_with(b"Content-Len"))


async def test_eof_after_header_line_before_separator() -> None:
    with pytest.raises(FramingError, match="header"):
        await read_message(reader_with(b"Content-Length: 10\r\n"))


async def test_eof_mid_body() -> None:
    data = encode({"seq": 1, "type": "event", "event": "output"})
    with pytest.raises(FramingError, match=r"after \d+ of \d+ body bytes"):
        await read_message(reader_with(data[:-5]))


async def test_eof_mid_second_message() -> None:
    data = encode({"seq": 1}) + encode({"seq": 2})
    reader = reader_with(data[:-1])
    assert await read_message(reader) == {"seq": 1}
    with pytest.raises(FramingError):
        await read_message(reader)


# -- bad Content-Length --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        pytest.param(b"Content-Type: application/json\r\n\r\n", id="missing"),
        pytest.param(b"Content-Length: -5\r\n\r\n", id="negative"),
        pytest.param(b"Content-Length: ten\r\n\r\n", id="garbage"),
        pytest.param(b"Content-Length: \r\n\r\n", id="empty"),
        pytest.param(b"Content-Length: 12.5\r\n\r\n", id="fractional"),
        pytest.param(b"Content-Length: 999999999999\r\n\r\n", id="huge"),
        pytest.param(b'{"seq":1}\r\n\r\n', id="json-without-header"),
    ],
)
async def test_bad_content_length(header: bytes) -> None:
    reader = reader_with(header + b'{"seq":1}' + b" " * 64)
    with pytest.raises(FramingError, match="Content-Length|not a DAP message header"):
        await read_message(reader)


async def test_a_peer_that_is_not_a_debug_adapter_is_caught_at_its_first_line() -> None:
    """An SSH server greets and then waits: without looking line by line this waits for ever."""
    reader = asyncio.StreamReader()
    reader.feed_data(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")  # and nothing more, no end of stream
    with pytest.raises(FramingError, match="is the peer a debug adapter"):
        await asyncio.wait_for(read_message(reader), 10)  # a hang guard: refused at the first line, at once


# -- bad bodies ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"{not json}", id="garbage"),
        pytest.param(b'{"seq":1', id="truncated-json"),
        pytest.param(b'{"a":"\xff\xfe"}', id="invalid-utf8"),
    ],
)
async def test_body_not_json(body: bytes) -> None:
    with pytest.raises(FramingError, match="not JSON"):
        await read_message(reader_with(framed(body)))


@pytest.mark.parametrize("body", [b"[1,2,3]", b'"string"', b"42", b"null", b"true"])
async def test_body_not_an_object(body: bytes) -> None:
    with pytest.raises(FramingError, match="not a JSON object"):
        await read_message(reader_with(framed(body)))


async def test_a_lone_surrogate_escape_becomes_a_replacement_character() -> None:
    """debugpy writes a byte of program output that is not UTF-8 as `\\udcff`; a pair stays a pair."""
    body = b'{"body":{"output":"bad \\udcff byte \\ud83d\\ude00","\\udcffkey":["\\ud800"]}}'
    message = await read_message(reader_with(framed(body)))
    assert message == {"body": {"output": "bad \ufffd byte \U0001f600", "\ufffdkey": ["\ufffd"]}}
    message["body"]["output"].encode("utf-8")
