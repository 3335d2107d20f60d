"""`debug` mode `test`: a project's tests run under the debugger in one call, stopping where the first failing
test fails, on real pytest under real debugpy over stdio (tests/programs/pytest_shop)."""

from __future__ import annotations

import sys
import venv

from conftest import PROGRAMS, code_at, locals_of, marker, pause_on, stdio_tools

SHOP = PROGRAMS / "pytest_shop"
CART_TESTS = SHOP / "tests" / "test_cart.py"
CART = SHOP / "shop" / "cart.py"
QUIET = ["-p", "no:cacheprovider"]  # no .pytest_cache written into the checkout


def run_tests(**arguments):
    return {"mode": "test", "cwd": str(SHOP), "python": sys.executable, "args": QUIET, **arguments}


async def test_a_failing_assert_stops_in_the_test_with_pytests_explanation_and_the_tests_locals():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(path="tests/test_cart.py"))
        assert ctx["state"] == "paused" and ctx["reason"] == "exception", ctx
        assert ctx["location"] == {"file": "tests/test_cart.py", "line": marker(CART_TESTS, "discount assert"),
                                   "column": 5, "function": "test_discount_is_taken_off",
                                   "text": code_at(CART_TESTS, marker(CART_TESTS, "discount assert"))}
        assert ctx["exception"]["typeName"] == "AssertionError"
        assert ctx["exception"]["message"] == "assert 1584 == 1440"  # pytest's rewritten assert explains itself
        assert {"charged": "1584", "expected": "1440"}.items() <= locals_of(ctx).items()
        listed = await tools.read_json("debugger://breakpoints")  # the run's stop is a breakpoint the agent sees
        assert "userUnhandled" in [b["filter"] for b in listed["exceptionBreakpoints"]]

        # the next failure, not the skipped, expected-to-fail and pytest.raises tests between them
        ctx = await tools.ok("continue")
        assert ctx["location"]["function"] == "price_of" and ctx["location"]["line"] == marker(CART, "lookup"), ctx
        assert ctx["exception"]["typeName"] == "KeyError" and locals_of(ctx)["item"] == "'plum'"
        assert "test_unknown_item" in ctx["exception"]["description"]  # paused where it left the project's code
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 1
        assert "2 failed, 2 passed, 1 skipped, 1 xfailed" in ended["output"]["text"]
        assert "hint" not in ended


async def test_a_node_id_runs_one_test_and_an_exception_deep_in_project_code_stops_where_it_was_raised():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(path="tests/test_cart.py::TestBasket::test_unknown_item"))
        assert ctx["exception"]["typeName"] == "KeyError", ctx
        assert [f["function"] for f in ctx["frames"]] == ["price_of", "line_total", "<genexpr>", "total",
                                                          "test_unknown_item"]  # no frame of pytest's
        assert ctx["location"]["file"] == "shop/cart.py" and locals_of(ctx)["item"] == "'plum'"
        ended = await tools.ok("continue")
        assert ended["exitCode"] == 1 and "1 failed" in ended["output"]["text"]


async def test_passing_tests_run_to_the_end_with_pytests_summary():
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", **run_tests(path="tests/test_passing.py"))
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert "2 passed" in ended["output"]["text"] and "hint" not in ended


async def test_a_filter_that_selects_nothing_says_so():
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", **run_tests(path="tests", test="no_such_test"))
        assert ended["state"] == "terminated" and ended["exitCode"] == 5
        assert "no test ran: pytest found no test to run" in ended["hint"] and "no_such_test" in ended["hint"]


async def test_the_test_filter_selects_by_name_and_restart_runs_the_same_tests_again():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(path="tests", test="unknown_item"))
        assert ctx["frames"][-1]["function"] == "test_unknown_item", ctx
        line = marker(CART_TESTS, "unknown item")
        await tools.ok("breakpoint", file="tests/test_cart.py", line=line)
        ctx = await tools.ok("restart")
        assert ctx["reason"] == "breakpoint" and ctx["location"]["line"] == line  # the agent's breakpoint first
        ctx = await tools.ok("continue")
        assert ctx["reason"] == "exception" and ctx["exception"]["typeName"] == "KeyError"  # the failure still stops
        ended = await tools.ok("continue")
        assert "1 failed, 7 deselected" in ended["output"]["text"]


async def test_an_interpreter_without_pytest_is_refused_naming_it(tmp_path):
    bare = tmp_path / "bare"
    venv.create(bare, with_pip=False)
    python = str(bare / "bin" / "python")
    async with stdio_tools() as tools:
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="test", path="tests", cwd=str(SHOP),
                                    python=python)
        assert python in message and "pip install pytest" in message
        assert "mode 'test'" in await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(CART),
                                                   test="x")
        assert "tests not found" in await tools.error("debug", "FILE_NOT_FOUND", **run_tests(path="tests/nope.py::t"))
        ended = await tools.ok("debug", **run_tests(path="tests/test_passing.py"))  # still usable
        assert ended["exitCode"] == 0


BOUNDED = SHOP / "bounded"
OUTPUT_CHARS = 8000  # README: output in a result keeps its last 8000 characters


async def test_a_suite_printing_thousands_of_lines_keeps_the_tail_with_the_summary_and_pages_the_rest():
    """pytest shows a failing test's captured output after the run: 3000 lines, then the summary the agent needs."""
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(path="bounded/test_floods.py"))
        assert ctx["location"]["line"] == marker(BOUNDED / "test_floods.py", "flood assert"), ctx
        ended = await tools.ok("continue")
        out = ended["output"]
        assert ended["state"] == "terminated" and ended["exitCode"] == 1
        assert out["truncated"] is True and len(out["text"]) == OUTPUT_CHARS, {k: v for k, v in out.items() if k != "text"}
        assert "1 failed" in out["text"].splitlines()[-1] and "order 00000 " not in out["text"]
        pages, offset = [], 0
        while True:
            page = await tools.ok("output", offset=offset, limit=OUTPUT_CHARS)
            pages.append(page["text"])
            if page["nextOffset"] >= page["end"]:
                break
            offset = page["nextOffset"]
        everything = "".join(pages)
        assert everything.endswith(out["text"]) and everything.count(" costs 300\n") == 3000
        assert everything.index("order 00000 costs 300") < everything.index("order 02999 costs 300")


async def test_a_hanging_test_is_met_by_timeout_and_pause_stops_in_its_frame():
    hangs = BOUNDED / "test_hangs.py"
    async with stdio_tools() as tools:
        running = await tools.ok("debug", **run_tests(path="bounded/test_hangs.py"), timeout=3)
        assert running["state"] == "running" and "pause" in running["hint"], running
        # on a loaded machine pytest may not have reached the loop in 3 s
        ctx = await pause_on(tools, (marker(hangs, "hang loop"), marker(hangs, "hang loop") + 1), guard=90,
                             normal="the first pause; pytest reaches the loop in 1 to 2 s", runs_on=0.5)
        assert ctx["state"] == "paused" and ctx["reason"] == "pause", ctx
        assert ctx["location"]["function"] == "test_waits_for_a_delivery_that_never_comes", ctx["location"]
        assert ctx["location"]["file"] == "bounded/test_hangs.py"
        assert ctx["location"]["line"] in (marker(hangs, "hang loop"), marker(hangs, "hang loop") + 1)
        assert locals_of(ctx)["order"] == "{'apple': 3}" and int(locals_of(ctx)["waited"]) > 0
        ended = await tools.ok("stop")
        assert ended["state"] == "terminated"


async def test_stop_on_entry_stops_where_the_first_selected_test_is_called_not_in_pytests_collection():
    """debugpy's own entry stop was the first line of the project's code pytest imports: `import pytest` at the
    top of tests/test_cart.py, while collecting, where no test had started."""
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(path="tests", test="unknown_item or discount_is"), stopOnEntry=True)
        assert ctx["state"] == "paused" and ctx["reason"] == "entry", ctx
        assert ctx["location"]["function"] == "test_discount_is_taken_off" and ctx["location"]["file"] == "tests/test_cart.py"
        assert ctx["location"]["line"] == marker(CART_TESTS, "discount assert") - 4  # its `def`, as it is called
        assert (await tools.ok("step", mode="over"))["location"]["line"] == marker(CART_TESTS, "discount assert") - 3
        listed = await tools.read_json("debugger://breakpoints")
        assert listed["breakpoints"] == [] and listed.get("functionBreakpoints", []) == [], listed  # the stand-in is gone
        ctx = await tools.ok("continue")
        assert ctx["reason"] == "exception" and ctx["location"]["line"] == marker(CART_TESTS, "discount assert")

        ctx = await tools.ok("restart")  # the same tests, stopping at the same entry
        assert ctx["reason"] == "entry" and ctx["location"]["function"] == "test_discount_is_taken_off", ctx

        ctx = await tools.ok("debug", **run_tests(path="tests/test_cart.py::TestBasket", args=[*QUIET, "-q"]),
                             stopOnEntry=True)  # the project's own -q does not hide the tests' names from the listing
        assert ctx["reason"] == "entry" and ctx["location"]["function"] == "test_unknown_item", ctx  # a method
        ended = await tools.ok("debug", **run_tests(path="tests", test="no_such_test"), stopOnEntry=True)
        assert ended["state"] == "terminated" and "no test ran" in ended["hint"]  # no test, no entry to stop at


TRAPS = PROGRAMS / "pytest_traps"
TRAP_TESTS = TRAPS / "tests" / "test_shapes.py"


async def test_a_run_stops_only_where_a_test_fails_not_where_library_code_catches():
    """The traps of real suites (toolz's): a PEP 562 module `__getattr__` raising AttributeError for pytest's
    probes at collection (`__test__`, `__wrapped__`, ...), and a project's `__signature__` property raising
    AttributeError that `inspect.signature` catches while a test runs. Neither fails a test; a failure inside a
    `mock.patch`-decorated test (its wrapper's `with` passes the exception on), in a unittest TestCase, and a
    `getattr` without a default do; a ValueError that pytest.raises or assertRaises expects (raised in a
    generator the test consumes, or in a callable assertRaisesRegex calls) does not."""
    shapes = TRAPS / "lazypkg" / "shapes.py"
    async with stdio_tools() as tools:
        arguments = {"mode": "test", "cwd": str(TRAPS), "python": sys.executable, "args": QUIET}
        ctx = await tools.ok("debug", path="tests", **arguments)
        assert (ctx["location"]["function"], ctx["location"]["line"]) == ("test_area", marker(TRAP_TESTS, "assert")), ctx
        ctx = await tools.ok("continue")  # an exception that escapes the test from the project's code
        assert (ctx["location"]["function"], ctx["location"]["line"]) == ("checked", marker(shapes, "raise")), ctx
        assert ctx["exception"]["typeName"] == "ValueError"
        ctx = await tools.ok("continue")
        assert (ctx["location"]["function"], ctx["location"]["line"]) == ("test_patched", marker(TRAP_TESTS, "patched"))
        ctx = await tools.ok("continue")
        assert (ctx["location"]["function"], ctx["location"]["line"]) == ("test_scaled", marker(TRAP_TESTS, "unittest"))
        ctx = await tools.ok("continue")  # getattr without a default: the module's AttributeError fails the test
        assert ctx["exception"]["typeName"] == "AttributeError" and "'circles'" in ctx["exception"]["message"], ctx
        assert "test_missing_attribute" in ctx["exception"]["description"], ctx
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 1, ended
        assert "5 failed, 4 passed" in ended["output"]["text"]
        # a test module that cannot be imported: its collection error is where the run stops
        ctx = await tools.ok("debug", path="broken", **arguments)
        assert (ctx["location"]["file"], ctx["location"]["line"], ctx["location"]["function"]) == (
            "broken/test_broken.py", 1, "<module>"), ctx
        assert ctx["exception"]["typeName"] == "ModuleNotFoundError", ctx
        ended = await tools.ok("continue")
        assert ended["exitCode"] == 2 and "1 error" in ended["output"]["text"], ended
