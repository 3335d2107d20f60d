"""The panic filter's message is read from what Rust's panic hook printed, as it arrives through lldb's terminal."""

from __future__ import annotations

import pytest

from dap2mcp.adapters.native import RUST_PANIC


@pytest.mark.parametrize(("printed", "message"), [
    pytest.param("\nthread 'main' (9) panicked at src/main.rs:10:20:\nindex out of bounds: the len is 3 but the index is 5\n"
                 "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
                 "index out of bounds: the len is 3 but the index is 5", id="note"),
    pytest.param("thread 'main' panicked at src/main.rs:14:9:\r\nattempt to add with overflow\r\nstack backtrace:\r\n   0: x\r\n",
                 "attempt to add with overflow", id="backtrace-crlf"),
    pytest.param("thread 'worker' panicked at src/lib.rs:3:5:\nfirst line\nsecond line\n", "first line\nsecond line",
                 id="two-lines-nothing-after"),
])
def test_the_message_is_the_hooks_text_between_the_place_and_what_follows(printed: str, message: str) -> None:
    text = "earlier output\n" + printed
    found = list(RUST_PANIC.message.finditer(text))[-1]
    assert found.group("message") == message
    assert found.group("place").startswith("src/")
