"""Text any output may hold: strings decoded from JSON can hold what no UTF-8 encoder takes."""

from __future__ import annotations

import re
from typing import Any

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def valid_unicode(node: Any) -> Any:
    """`node` with each lone surrogate in its strings replaced by U+FFFD.

    JSON may escape half a surrogate pair on its own, and Python decodes it to a string that no
    UTF-8 encoder takes: debugpy sends a byte of the program's output that is not UTF-8 (`\\xff`)
    as `\\udcff`, and such a string would make every answer holding it fail to serialize.
    """
    if isinstance(node, str):
        return _LONE_SURROGATE.sub("\ufffd", node)
    if isinstance(node, dict):
        return {valid_unicode(key): valid_unicode(value) for key, value in node.items()}
    if isinstance(node, list):
        return [valid_unicode(item) for item in node]
    return node


def has_lone_surrogate(text: str) -> bool:
    """Whether `text` holds what `valid_unicode` would replace: a scan at C speed, where walking a whole answer
    to clean it costs more than writing it."""
    return _LONE_SURROGATE.search(text) is not None
