"""`debug` mode `test` for Go: a package's tests run under real Delve (its `test` mode) over stdio, stopping in
the failing test's own frame with what it reported (tests/programs/go_tests)."""

from __future__ import annotations

from conftest import PROGRAMS, locals_of, marker, stdio_tools

PACKAGE = PROGRAMS / "go_tests"
TESTS = PACKAGE / "pricing_test.go"
CODE = PACKAGE / "pricing.go"
BUILD = 120  # the test binary is built first: far above the usual few seconds, on a busy machine


def run_tests(**arguments):
    return {"mode": "test", "path": str(PACKAGE), "timeout": BUILD, **arguments}


async def test_a_failing_errorf_stops_in_the_test_with_its_message_and_a_panic_where_it_was_caused():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests())
        assert ctx["state"] == "paused" and ctx["reason"] == "exception", ctx
        assert ctx["location"]["function"] == "pricing.TestBulkDiscount"  # the test's frame, not Fail's
        assert ctx["location"]["line"] == marker(TESTS, "errorf")
        assert ctx["location"]["file"].endswith("go_tests/pricing_test.go")
        assert ctx["exception"]["message"] == "Total = 3540, want 3900"  # what t.Errorf printed
        assert ctx["description"] == "Go test failure: Total = 3540, want 3900"
        assert {"got": "3540", "want": "3900"}.items() <= locals_of(ctx).items()
        listed = await tools.read_json("debugger://breakpoints")  # the run's stop is a filter the agent sees
        assert "testFailure" in [b["filter"] for b in listed["exceptionBreakpoints"]]

        # the next failure is a panic in the project's code, shown there (not in the testing package's recover,
        # and not as a second "test failure" from the testing package's own t.Fail for a panicking test)
        ctx = await tools.ok("continue")
        assert ctx["description"] == "panic: runtime error: index out of range [2] with length 2", ctx
        assert ctx["location"]["function"] == "pricing.Price"
        assert ctx["location"]["line"] == marker(CODE, "index") and locals_of(ctx)["index"] == "2"
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 2  # a Go program's panic
        assert "[recovered" in ended["output"]["text"]  # the testing package's report of it ("[recovered, repanicked]" since Go 1.23)


async def test_a_failing_subtest_stops_once_in_its_own_function():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(test="Table"))
        assert ctx["location"]["function"] == "pricing.TestDiscountTable.func1", ctx
        assert ctx["location"]["line"] == marker(TESTS, "fatalf")
        assert ctx["exception"]["message"] == "bulk: Total = 810, want 900" and locals_of(ctx)["got"] == "810"
        # Fail reports the failure to the parent test, and that one's parent, by calling itself: no stop for those
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 1, ended
        assert "--- FAIL: TestDiscountTable/bulk" in ended["output"]["text"]


async def test_passing_tests_run_to_the_end_and_a_pattern_that_selects_nothing_says_so():
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", **run_tests(test="TestSmallBasket|TestSubtests"))
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert ended["output"]["text"].endswith("PASS\n") and "hint" not in ended
        assert "--- PASS: TestSubtests/quantity#01" in ended["output"]["text"]

        ended = await tools.ok("debug", **run_tests(test="NoSuchTest"))
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert "testing: warning: no tests to run" in ended["output"]["text"]
        assert "no test ran: go test found no test to run" in ended["hint"] and "NoSuchTest" in ended["hint"]


async def test_restart_runs_the_same_tests_again_and_the_agents_breakpoint_comes_first():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(test="TestBulkDiscount"))
        assert ctx["exception"]["message"] == "Total = 3540, want 3900", ctx
        line = marker(CODE, "discount again")
        await tools.ok("breakpoint", file=str(CODE), line=line)
        ctx = await tools.ok("restart")
        assert ctx["reason"] == "breakpoint" and ctx["location"]["line"] == line, ctx
        assert locals_of(ctx)["cost"] == "3600"
        ctx = await tools.ok("continue")
        assert ctx["reason"] == "exception" and ctx["location"]["line"] == marker(TESTS, "errorf"), ctx
        ended = await tools.ok("continue")
        assert ended["exitCode"] == 1 and "TestSmallBasket" not in ended["output"]["text"]


async def test_stop_on_entry_stops_in_the_first_selected_test_not_in_the_generated_test_main():
    """Delve's entry was the test binary's `main.main`, in a generated _testmain.go that is gone."""
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(test="Bulk|Small"), stopOnEntry=True)
        assert ctx["state"] == "paused" and ctx["reason"] == "entry", ctx
        assert ctx["location"]["function"] == "pricing.TestSmallBasket"  # first in the file, first run
        assert ctx["location"]["file"].endswith("go_tests/pricing_test.go")
        ctx = await tools.ok("continue")
        assert ctx["reason"] == "exception" and ctx["location"]["function"] == "pricing.TestBulkDiscount"
        await tools.ok("stop")
