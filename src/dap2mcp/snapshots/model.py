"""The snapshot model: a tree of variable nodes, identified by path, hashed by content.

Pure data, no DAP: the capture code builds nodes from adapter replies, the codec serializes
them, the diff compares them. Nodes are immutable once built, so serializing or diffing a
snapshot can never change it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import NamedTuple

SPEC_VERSION = "PACT/0.1.0"

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_INDEX = re.compile(r"^\[?(-?\d+)\]?$")
_QUOTED = re.compile(r"""^(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")$""")
_OBJECT_ADDRESS = re.compile(r"(?<= at )0x[0-9a-fA-F]{4,}(?=>)")


def comparable(value: str) -> str:
    """A value as compared: the address in an object's description (`<Order object at 0x7f…>`)
    differs from run to run, so it is masked.

    Without this every object in a baseline from an earlier run would show as modified; an
    object replaced by another still shows through its children at depth 1 and more. Values that
    are addresses (a C or Go pointer) are compared as they are: a pointer that moved is a change.
    """
    return _OBJECT_ADDRESS.sub("0x…", value) if " at 0x" in value else value


def child_path(parent: str, name: str) -> str:
    """The path of child `name` under `parent`: `a.b`, `a[3]`, `a["key"]`, or just `name` at the top."""
    if not parent:
        return name
    if name.isascii() and name.isidentifier():
        return f"{parent}.{name}"
    if name.isascii() and name.isdigit():
        return f"{parent}[{int(name)}]"
    if name.startswith("["):
        return parent + name
    if index := _INDEX.match(name):
        return f"{parent}[{int(index.group(1))}]"
    if name[:1] in ("'", '"') and (quoted := _QUOTED.match(name)):
        key = quoted.group(1) if quoted.group(1) is not None else quoted.group(2)
        if '"' in key or "\\" in key or not key.isprintable():
            return f"{parent}[{json.dumps(key, ensure_ascii=False)}]"
        return f'{parent}["{key}"]'  # what json.dumps gives, without its cost on every dict key
    if _IDENTIFIER.match(name):
        return f"{parent}.{name}"
    return f"{parent}[{name}]"


def sibling_key(name: str) -> tuple[int, int, str]:
    """Canonical sibling order: indices numerically first, then names; never the adapter's order."""
    if name.isascii() and name.isdigit():
        return (0, int(name), name)
    index = _INDEX.match(name) if name[:1] in ("[", "-") else None
    if index:
        return (0, int(index.group(1)), name)
    return (1, 0, name)


def _content_hash(type_: str, value: str, flags: tuple[str, ...], children: tuple[Node, ...]) -> str:
    """Hash of everything a node holds except its own name, so a value moved elsewhere keeps it.

    Every part is length-prefixed, so no two different nodes hash the same text.
    """
    marks = ",".join(flags)
    parts = [f"{len(type_)}:{type_}{len(value)}:{value}{len(marks)}:{marks}"]
    parts.extend(f"{len(c.name)}:{c.name}{c.hash}" for c in children)
    return hashlib.blake2b("".join(parts).encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


HEADER_FIELDS = ("name", "type", "value", "flags")


class Node(NamedTuple):
    """One variable. `id` is its path from the frame; `children` are in canonical order.

    Immutable, and a tuple because a big snapshot builds hundreds of thousands of them.
    """

    id: str
    name: str
    type: str
    value: str
    flags: tuple[str, ...] = ()
    """`cycle` (refers back to an ancestor, not expanded), `truncated` (children cut at a bound),
    `valueTruncated`, `unreadable` (the adapter could not list the children)."""
    children: tuple[Node, ...] = ()
    hash: str = ""
    size: int = 1
    """Nodes in this subtree, itself included."""

    @staticmethod
    def build(parent: str, name: str, type_: str, value: str, children: Iterable[Node] = (),
              flags: Iterable[str] = (), *, path: str | None = None) -> Node:
        """`path`, when given, must be `child_path(parent, name)`; callers that know it save the work."""
        kids = tuple(sorted(children, key=lambda n: sibling_key(n.name)))
        marks = tuple(sorted(set(flags))) if flags else ()
        return Node(id=path if path is not None else child_path(parent, name), name=name, type=type_, value=value, flags=marks, children=kids,
                    hash=_content_hash(type_, value, marks, kids), size=1 + sum(k.size for k in kids))

    def walk(self) -> Iterator[Node]:
        """This node and its descendants, in canonical (pre-)order."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


@dataclass(frozen=True)
class Snapshot:
    """The variables of one frame at one stop, with the metadata of seed 000."""

    id: str
    label: str
    timestamp: datetime
    thread_id: int | None
    frame_index: int
    function_name: str
    depth: int
    cycle: int
    roots: tuple[Node, ...]
    truncated: bool = False
    auto: bool = field(default=False, compare=False)
    run: str | None = field(default=None, compare=False)
    """The debug run it was taken in; None when imported. Within one run, object addresses compare exactly."""
    partial: bool = field(default=False, compare=False)
    """A stop snapshot missing a scope the adapter would not list: what it lacks is unknown, not absent."""
    call: tuple[object, ...] | None = field(default=None, compare=False)
    """Which call of its function a stop snapshot was taken in (the stack below the frame, and its depth):
    another call of the same function, a recursion or another method of that name, has another."""

    @cached_property
    def nodes(self) -> dict[str, Node]:
        """Every node by id, in canonical order. The first node of a duplicated id wins."""
        flat: dict[str, Node] = {}
        for root in self.roots:
            for node in root.walk():
                flat.setdefault(node.id, node)
        return flat

    @property
    def variable_count(self) -> int:
        return len(self.nodes)

    def metadata(self) -> dict[str, object]:
        return {
            "id": self.id,
            "label": self.label,
            "timestamp": format_timestamp(self.timestamp),
            "threadId": self.thread_id,
            "frameIndex": self.frame_index,
            "functionName": self.function_name,
            "variableCount": self.variable_count,
            "depth": self.depth,
            "cycle": self.cycle,
        }


def format_timestamp(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


def format_delta(seconds: float) -> str:
    """`HH:MM:SS.fff`, with a leading minus when the second snapshot is the older one."""
    millis = round(abs(seconds) * 1000)
    sign = "-" if seconds < 0 and millis else ""
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    secs, millis = divmod(millis, 1000)
    return f"{sign}{hours:02d}:{minutes:02d}:{secs:02d}.{millis:03d}"


def roots_in_order(nodes: Iterable[Node]) -> tuple[Node, ...]:
    return tuple(sorted(nodes, key=lambda n: sibling_key(n.name)))
