"""Values an agent can read under the native adapters: a struct, an array, a char buffer and the C++ standard
containers show their first level inline, in the context and in `evaluate`, bounded; and a stop carries no
scopes of the language library's internals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import PROGRAMS, locals_of, marker, stdio_tools

CHARS = 200  # docs/limits.md: "previews of values with children | 200 characters"
VALUES = 8  # docs/limits.md: "the first 8 such values of a stop"

LEDGER = PROGRAMS / "ledger.c"
CONTAINERS = PROGRAMS / "containers.cpp"
STOCK = PROGRAMS / "stock.rs"


async def _stop_at(tools: Any, adapter: str, program: Any, mark: str) -> dict[str, Any]:
    ctx = await tools.ok("debug", mode="source", path=str(program), adapter=adapter, timeout=60,
                         breakpoints=[{"file": str(program), "line": marker(program, mark)}])
    assert ctx["state"] == "paused" and ctx["location"]["line"] == marker(program, mark), ctx
    return ctx


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_a_struct_with_an_array_a_nested_struct_and_a_text_buffer_reads_inline(adapter: str) -> None:
    """Not lldb's `account @ 0x7ff…` and `int[500] @ 0x…`, nor gdb's `{...}`, `[64]` and an array's address."""
    async with stdio_tools() as tools:
        ctx = await _stop_at(tools, adapter, LEDGER, "summed")
        local = locals_of(ctx)
        account = local["account"]
        for shown in ('"Ada"', "10, 20, 30", "2021", "7", '"rent for july"'):
            assert shown in account, account
        assert "balances" in account and "opened" in account and "memo" in account, account
        assert "@ 0x" not in account and "{...}" not in account and "\\000" not in account, account

        history = local["history"]  # 500 elements: the first ones, then the cut
        assert "1000, 1001, 1002" in history and "…" in history and len(history) <= CHARS, history
        assert "1499" not in history, history

        evaluated = await tools.ok("evaluate", expression="account")
        assert '"Ada"' in evaluated["value"] and "2021" in evaluated["value"], evaluated
        assert "10, 20, 30" in evaluated["value"], evaluated
        memo = await tools.ok("evaluate", expression="account.memo")  # a char[64] reads as its text
        assert memo["value"] == '"rent for july"', memo
        opened = await tools.ok("evaluate", expression="account.opened")
        assert "year" in opened["value"] and "2021" in opened["value"] and "month" in opened["value"], opened
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_a_pointer_to_a_struct_shows_what_it_points_to_after_its_address(adapter: str) -> None:
    async with stdio_tools() as tools:
        ctx = await _stop_at(tools, adapter, LEDGER, "adding")
        acct = locals_of(ctx)["acct"]
        assert acct.startswith("0x") and '"Ada"' in acct and "2021" in acct and '"rent for july"' in acct, acct
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_an_evaluated_call_runs_once(adapter: str) -> None:
    """gdb's preview prints the expression again: not one that may call a function or assign."""
    async with stdio_tools() as tools:
        await _stop_at(tools, adapter, LEDGER, "summed")
        await tools.ok("evaluate", expression="issue()")
        assert (await tools.ok("evaluate", expression="issued"))["value"] == "1"
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_only_the_first_values_of_a_stop_are_read_again(adapter: str) -> None:
    """Each preview costs the adapter a request at every stop: past the bound a value stays as the adapter wrote it."""
    async with stdio_tools() as tools:
        ctx = await _stop_at(tools, adapter, LEDGER, "points")
        local = locals_of(ctx)
        points = [local[name] for name in "abcdefghij"]
        assert points[:4] == (["{x: 0, y: 0}", "{x: 4, y: 0}", "{x: 4, y: 3}", "{x: 2, y: 5}"] if adapter == "lldb"
                              else ["{x = 0, y = 0}", "{x = 4, y = 0}", "{x = 4, y = 3}", "{x = 2, y = 5}"]), points
        assert all("y" in p for p in points[:VALUES]), points
        assert all("y" not in p for p in points[VALUES:]), points  # `point @ 0x…`, `{...}`
        j = await tools.ok("evaluate", expression="j")  # the agent reads one past the bound by name
        assert "5" in j["value"] and "y" in j["value"], j
        await tools.ok("stop")


@pytest.mark.parametrize("adapter", ["lldb", "gdb"])
async def test_standard_containers_show_their_elements(adapter: str) -> None:
    """lldb-dap wrote `size=3` and, for a libstdc++ unordered_map, `size=0` though it held two entries; gdb wrote
    `{...}` for each with no children, although its own pretty printers know them."""
    async with stdio_tools() as tools:
        ctx = await _stop_at(tools, adapter, CONTAINERS, "filled")
        local = locals_of(ctx)
        names, ages, scores = local["names"], local["ages"], local["scores"]
        assert all(f'"{n}"' in names for n in ("alice", "bob", "carol")), names
        assert '"alice"' in ages and "31" in ages and '"bob"' in ages and "42" in ages, ages
        assert "size=0" not in ages, ages
        assert '"alice"' in scores and "7" in scores and '"bob"' in scores and "9" in scores, scores
        order = local["order"]  # a container inside a struct shows its elements too
        assert '"Ada"' in order and "9.5, 10.25" in order, order
        for name in ("names", "ages", "scores", "order"):
            assert "{...}" not in local[name] and len(local[name]) <= 2 * CHARS, local[name]

        evaluated = await tools.ok("evaluate", expression="ages")
        assert '"bob"' in evaluated["value"] and "42" in evaluated["value"], evaluated
        await tools.ok("stop")


async def test_a_cpp_stop_lists_no_globals_of_the_cpp_library_and_registers_claim_no_count() -> None:
    """lldb-dap put a Globals scope of libstdc++ internals on every C++ stop; its Registers scope said `total: 3`,
    which counts register sets, not variables."""
    async with stdio_tools() as tools:
        ctx = await _stop_at(tools, "lldb", CONTAINERS, "filled")
        listed = [scope for scope in ctx["scopes"] if scope["name"] == "Globals" and scope["variables"]]
        assert not listed, ctx["scopes"]  # named at most: lldb's Globals are listed on request
        assert "std::__detail" not in json.dumps(ctx["scopes"]), ctx["scopes"]
        registers = next(scope for scope in ctx["scopes"] if scope["name"] == "Registers")
        assert registers == {"name": "Registers", "variables": [], "expensive": True}, registers
        listed = await tools.ok("context", scopes=["Registers"])  # still there when asked for
        assert any(s["name"] == "Registers" and s["variables"] for s in listed["scopes"]), listed["scopes"]
        await tools.ok("stop")


async def test_a_rust_stop_lists_no_vtables_and_is_smaller() -> None:
    async with stdio_tools() as tools:
        ctx = await _stop_at(tools, "lldb", STOCK, "print")
        text = json.dumps(ctx)
        assert "vtable" not in text and not [s for s in ctx["scopes"] if s["name"] == "Globals" and s["variables"]], \
            ctx["scopes"]
        assert len(text) < 1500, len(text)  # 1,939 characters with the toolchain's vtables listed
        assert locals_of(ctx)["items"] == "size=3 [3, 1, 4]", locals_of(ctx)
        await tools.ok("stop")


async def test_a_long_cpp_function_name_is_not_repeated_whole_in_frame_changed() -> None:
    """gdb names `std::vector<std::map<…>>::operator[]` in nearly 10,000 characters; frames cut it, but the change
    report after leaving it named it whole. (A step in passes over the C++ library: a breakpoint takes the stop
    there.)"""
    program = PROGRAMS / "long_types.cpp"
    async with stdio_tools() as tools:
        await _stop_at(tools, "gdb", program, "first")
        await tools.ok("breakpoint", function="operator[]")
        inside = await tools.ok("continue")
        assert inside["location"]["function"].startswith("std::vector<std::map<"), inside["location"]
        back = await tools.ok("step", mode="out")
        changed = back["changes"]["frameChanged"]
        assert changed.startswith("the previous stop was in `std::vector<std::map<…>") and len(changed) < 250, changed
        assert "::operator[]" in changed, changed  # the template's arguments shortened, the name kept
        await tools.ok("stop")
