"""`debug` mode `test` for JavaScript: node:test, mocha, Jest and Vitest runs under real js-debug over stdio,
stopping where the runner records a failed test, shown at the failing assertion in the test's file with its
message, and never at an expected throw (`assert.throws`, `expect(f).toThrow()`) (tests/programs/node_tests,
tests/programs/mocha_project, jest_project, vitest_project)."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest

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


MOCHA_PROJECT = PROGRAMS / "mocha_project"
NODE_MODULES = PROGRAMS.parent / "npm" / "node_modules"  # scripts/test.sh installs the runners there (tests/npm)


def linked_project(tmp_path, project=MOCHA_PROJECT):
    """A copy of one of tests/programs' projects with the tests' own npm packages as its node_modules."""
    shutil.copytree(project, tmp_path / "project")
    (tmp_path / "project" / "node_modules").symlink_to(NODE_MODULES)
    return tmp_path / "project"


async def test_a_mocha_project_stops_at_its_failing_assertion_and_grep_selects_tests(tmp_path):
    project = linked_project(tmp_path)
    spec = project / "test" / "cart.spec.js"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", **run_tests(project))
        assert ctx["reason"] == "exception" and ctx["description"].startswith("mocha test failure: AssertionError"), ctx
        assert ctx["location"]["file"].endswith("test/cart.spec.js")
        assert ctx["location"]["line"] == marker(spec, "failing assertion")
        assert "13 !== 22" in ctx["exception"]["message"]
        assert "in test 'cart totals its items'" in ctx["exception"]["description"]
        ended = await tools.ok("continue")  # the expected throw and the skipped test made no stop
        assert ended["state"] == "terminated" and ended["exitCode"] == 1, ended
        assert "2 passing" in ended["output"]["text"] and "1 failing" in ended["output"]["text"]

        ended = await tools.ok("debug", **run_tests(spec, test="refuses"))
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert "1 passing" in ended["output"]["text"]

        ended = await tools.ok("debug", **run_tests(project, test="no such test"))
        assert ended.get("exitCode") == 0 and "no test ran: mocha found no test to run" in ended["hint"], json.dumps(ended)[:4000]  # whole: a worker's stop came here under load


async def stops_at_each_failure_of_the_invoice_project(tools, project, runner, assertion, actual, end):
    """The run of jest_project or vitest_project: its failing assertion, where `actual` (an expression and its
    value) reads what was thrown, then the throw in the code under test, then the end; the expected throw and the
    passing tests make no stop. Both runners run the test files in worker
    processes, child sessions of the program's (s2)."""
    spec, invoice = project / "test" / "invoice.test.js", project / "invoice.js"
    ctx = await tools.ok("debug", **run_tests(project))
    assert ctx["reason"] == "exception" and ctx["description"].startswith(f"{runner} test failure: {assertion}"), ctx
    assert ctx["location"]["file"] == str(spec) and ctx["location"]["line"] == marker(spec, "failing assertion")
    assert "in test 'invoice totals its lines'" in ctx["exception"]["description"]
    assert ctx["parentId"] not in (None, "s1"), ctx  # a worker's session stopped
    read = await tools.ok("evaluate", expression=actual[0])
    assert read["value"] == actual[1], read
    ctx = await tools.ok("continue")
    assert ctx["exception"]["message"] == "RangeError: not a quantity: ten", ctx
    assert ctx["location"]["file"] == str(invoice) and ctx["location"]["line"] == marker(invoice, "refused")
    ended = await tools.ok("continue")
    if ended["sessionId"] != "s2":  # a worker's end (the runner ends them): the run goes on in s2, the program's
        assert ended["state"] == "terminated" and "its parent, is the current session again" in ended["hint"], json.dumps(ended)[:4000]  # whole: a worker's stop came here under load
        ended = await tools.ok("wait", sessionId="s2", timeout=60)
    assert ended["state"] == "terminated" and ended["sessionId"] == "s2" and ended["exitCode"] == 1, ended
    assert end.search(re.sub(r"\x1b\[[0-9;]*m", "", ended["output"]["text"])), ended["output"]["text"]  # colours out
    return ended


async def test_a_jest_project_stops_in_its_worker_at_the_failing_assertion_and_t_selects_tests(tmp_path):
    project = linked_project(tmp_path, PROGRAMS / "jest_project")  # its test files run in Jest's worker processes
    async with stdio_tools() as tools:
        await stops_at_each_failure_of_the_invoice_project(
            tools, project, "jest", "Error: expect(received).toBe(expected)", ("error.matcherResult.actual", "13"),
            re.compile(r"Tests:\s+2 failed, 3 passed"))

        ended = await tools.ok("debug", **run_tests(project / "test" / "invoice.test.js", test="refuses"))
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert re.search(r"Tests:\s+3 skipped, 1 passed", ended["output"]["text"]), ended["output"]["text"]

        ended = await tools.ok("debug", **run_tests(project, test="no such test"))
        assert ended.get("exitCode") == 0 and "no test ran: jest found no test to run" in ended["hint"], json.dumps(ended)[:4000]  # whole: a worker's stop came here under load


@pytest.fixture
def node_22_first(monkeypatch):
    """Node 22 first on PATH, for the server and the runs: Vitest 5 needs Node 22.12 or later."""
    bin_folder = NODE_MODULES / ".bin"
    assert (bin_folder / "node").exists(), f"{bin_folder / 'node'} is missing: run scripts/install.sh"
    monkeypatch.setenv("PATH", f"{bin_folder}{os.pathsep}{os.environ['PATH']}")


@pytest.mark.usefixtures("node_22_first")
async def test_a_vitest_project_stops_in_its_worker_at_the_failing_assertion_and_t_selects_tests(tmp_path):
    project = linked_project(tmp_path, PROGRAMS / "vitest_project")  # Vitest runs each test file in a forked worker
    async with stdio_tools() as tools:
        ended = await stops_at_each_failure_of_the_invoice_project(
            tools, project, "vitest", "AssertionError: expected 13 to be 22", ("error.actual", "'13'"),  # made text
            re.compile(r"Tests\s+2 failed \| 3 passed"))
        assert "\x1b[" in ended["output"]["text"]  # colours, which the end's hint reads through

        ended = await tools.ok("debug", **run_tests(project, test="refuses"))
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended

        ended = await tools.ok("debug", **run_tests(project, test="no such test"))
        assert ended.get("exitCode") == 0 and "no test ran: vitest found no test to run" in ended["hint"], json.dumps(ended)[:4000]  # whole: a worker's stop came here under load
