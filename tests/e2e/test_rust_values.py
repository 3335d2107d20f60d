"""What a Rust program's values read as under lldb-dap, through the Rust toolchain's formatters (rustc 1.95) and
dap2mcp's additions to them (`adapters/_lldb_rust_views.py`), on tests/programs/std_values.rs: each value as an
agent sees it, by `evaluate` and in a snapshot."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import PROGRAMS, locals_of, marker, stdio_tools

VALUES = PROGRAMS / "std_values.rs"
SHOWN = {
    # lldb read u8 and i8 as C characters ('\xc8', a [u8; 4] as a string) and a char as `U+0x000000df U'ß'`
    "byte": "200", "offset": "-5", "letter": "223 'ß'", "bytes": "[1, 2, 3, 4]", "letters": "['a', 'é']",
    "raw": "size=4 [104, 105, 0, 255]",
    "said": '"say \\"hi\\"\\n\\ttab\\\\"',  # escaped as Rust's {:?} escapes it
    # references to values with a formatter showed the raw fields of what they point to
    "first": '0x… "v1.2.0"', "counts_ref": "0x… size=3 [3, 1, 2]", "maybe_ref": "0x… Some(7)",
    "found": "Some(&1)",  # Some(0x7ff…)
    # no formatter of the toolchain's: a pair of data pointer and length, a struct of locks
    "boxed_text": '"boxed"', "boxed_slice": "size=2 [4, 5]", "guarded": "77 (locked)",
    # Rc<str> and Arc<[T]> read as their first element alone; a smart pointer or cell showed only its counts
    "shared_text": '"pattern" (strong=1, weak=0)',
    "shared": '"shared" (strong=2, weak=0)', "cell": "3",
    # issue 36 point 6: a shared or borrowed container showed its count alone (`size=3 (strong=1, weak=0)`)
    "shared_slice": "size=3 [7, 8, 9] (strong=1, weak=0)",
    "cells": "size=2 [9, 8] (borrow=1)", "reading": "size=2 [9, 8] (borrow=1)",
    "store": '{shared: size=3 [1, 2, 3] (strong=1, weak=0), names: size=2 ["a", "b"] (strong=1, weak=0), '
             'lock: {count:4, label:"t"} (locked) (strong=1, weak=0)}',
    "store.shared": "size=3 [1, 2, 3] (strong=1, weak=0)", "store.names": 'size=2 ["a", "b"] (strong=1, weak=0)',
    "counter": '{count:5, label:"r"} (strong=1, weak=0)',
    "tally": '{count:4, label:"t"} (locked)',  # a MutexGuard: the data it lends; was its `lock` and `poison`
    "pair": "(1, Ok(12))",
    # raw B-tree nodes
    "names": 'size=2 ["a", "b"]',
    "queue": "size=3 [0, 1, 2]",  # its buffer wraps around
    "done": "Ok(())",  # Ok{None:()}
    # a trait object: its type's value, found by its vtable
    "sku": 'std_values::Sku {code:"A-1", shelf:3}',
    "shared_sku": 'std_values::Sku {code:"B-2", shelf:4} (strong=1, weak=0)',
    "by_name": 'size=1 [("one", 1)]',
}


DEREFERENCED = {
    # issue 36 point 6: `*x` of a value that is not a pointer to lldb failed ("indirection requires pointer operand")
    "*store.shared": "size=3 [1, 2, 3]", "*store.lock": '{count:4, label:"t"} (locked)',
    "*counter": '{count:5, label:"r"}', "*shared": '"shared"', "*reading": "size=2 [9, 8]",
    "*tally": '{count: 4, label: "t"}', "tally.count": "4", "tally.label": '"t"',  # was tally.lock.data.value.count
    "*sku": '{code: "A-1", shelf: 3}', "sku.code": '"A-1"',  # a Box<dyn Display>: its type's value
    "*shared_sku": '{code: "B-2", shelf: 4}', "pair.1": "Ok(12)",
}


def without_addresses(value: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]{16}", "0x…", value)


async def test_the_standard_librarys_values_read_as_the_program_holds_them(tmp_path: Path) -> None:
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(VALUES),
                             breakpoints=[{"file": str(VALUES), "line": marker(VALUES, "shown")}])
        assert ctx["reason"] == "breakpoint", ctx
        shown = {name: without_addresses((await tools.ok("evaluate", expression=name))["value"]) for name in SHOWN}
        assert shown == SHOWN
        ordered = (await tools.ok("evaluate", expression="ordered"))["value"]
        assert ordered.startswith("size=30 {0: 0, 1: 1, 2: 4, 3: 9, ") and ordered.endswith(", …}"), ordered
        assert locals_of(ctx)["letter"] == "223 'ß'"  # the context reads them as evaluate does

        # a map's entries are named by their keys, in order, across the tree's nodes (30 entries: two levels)
        snapshot = await tools.ok("snapshot_create", depth=1)
        written = tmp_path / "snapshot.json"
        await tools.ok("snapshot_export", snapshot_id=snapshot["snapshot"]["id"], path=str(written))
        nodes = {node["name"]: node for node in json.loads(written.read_text())["root"]["children"]}
        entries = [(child["name"], child["value"]) for child in nodes["ordered"]["children"]]
        assert entries == [(str(key), str(key * key)) for key in range(30)], entries
        assert [child["value"] for child in nodes["names"]["children"]] == ['"a"', '"b"']
        assert [child["value"] for child in nodes["shared_slice"]["children"]] == ["7", "8", "9"]
        assert [child["name"] for child in nodes["sku"]["children"]] == ["code", "shelf"]
        assert [child["name"] for child in nodes["tally"]["children"]] == ["count", "label"]
        assert [(child["name"], child["value"]) for child in nodes["pair"]["children"]] == [("0", "1"), ("1", "Ok(12)")]
        await tools.ok("stop")


async def test_shared_locked_and_boxed_values_are_reached_through_a_star() -> None:
    """`*x` of an `Rc`, `Arc`, `RefCell`'s `Ref`, `MutexGuard` or `Box<dyn Trait>` reads what it holds, and a guard's
    fields are its own (issue 36 point 6): lldb's expression parser takes none of them for a pointer."""
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(VALUES),
                       breakpoints=[{"file": str(VALUES), "line": marker(VALUES, "shown")}])
        shown = {name: without_addresses((await tools.ok("evaluate", expression=name))["value"]) for name in DEREFERENCED}
        assert shown == DEREFERENCED
        await tools.ok("stop")
