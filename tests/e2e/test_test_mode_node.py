"""`debug` mode `test` for JavaScript: node:test and mocha runs under real js-debug over stdio, stopping where the
runner records a failed test, shown at the failing assertion in the test's file with its message, and never at an
expected throw (`assert.throws`) (tests/programs/node_tests, tests/programs/mocha_project)."""

from __future__ import annotations

from conftest import PROGRAMS, marker, stdio_tools

NODE_TESTS = PROGRAMS / "node_tests"
PRICING_TESTS = NODE_TESTS / "test" / "pricing.test.js"
PRICING = NODE_TESTS / "pricing.js"


def run_tests(path, **arguments):
    return {"mode": "test", "path": str(path), "timeout": 60, **arguments}


async def test_a_node_test_file_stops_at_each_failing_assertion_and_not_at_expected_throws():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(PRICING_TESTS))
        assert ctx["state"] == "paused" and ctx["reason"] == "exception", ctx
        assert ctx["location"]["file"].endswith("node_tests/test/pricing.test.js")  # not the runner's, not the hook's
        assert ctx["location"]["line"] == marker(PRICING_TESTS, "failing assertion")
        assert ctx["exception"]["message"].startswith("AssertionError [ERR_ASSERTION]: Expected values to be strictly")
        assert "2916 !== 3240" in ctx["description"] and "in test 'bulk discount'" in ctx["exception"]["description"]
        error = await tools.ok("evaluate", expression="error.actual")  # what was thrown, in the stop's frame
        assert error["value"] == "2916"
        listed = await tools.read_json("debugger://breakpoints")
        assert "testFailure" in [b["filter"] for b in listed["exceptionBreakpoints"]]

        # the next failure is a throw in the code under test, shown where it was thrown
        ctx = await tools.ok("continue")
        assert ctx["exception"]["message"] == "RangeError: not a quantity: ten", ctx
        assert ctx["location"]["file"].endswith("node_tests/pricing.js")
        assert ctx["location"]["line"] == marker(PRICING, "refused")
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 1, ended
        assert "# pass 2" in ended["output"]["text"] and "# fail 2" in ended["output"]["text"]


async def test_a_directory_with_a_name_filter_stops_in_its_test_and_a_filter_that_selects_nothing_says_so():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(NODE_TESTS, test="bulk"))
        assert ctx["reason"] == "exception" and ctx["location"]["line"] == marker(PRICING_TESTS, "failing assertion"), ctx

        ended = await tools.ok("debug", **run_tests(NODE_TESTS, test="no such test"))
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert "no test ran: node:test found no test to run" in ended["hint"]


async def test_passing_node_tests_run_to_the_end():
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", **run_tests(NODE_TESTS / "test" / "names.test.js"))
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert "# pass 1" in ended["output"]["text"] and "hint" not in ended
