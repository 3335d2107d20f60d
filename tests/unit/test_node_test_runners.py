"""The Jest and Vitest runners' data (issue 35 point 4): a path Jest reads as a pattern matches only itself, and a
run whose name filter selected nothing is told from one that ran tests by the runner's summary, as it prints it."""

import re

from dap2mcp.adapters.node_tests import JEST, VITEST, pattern


def test_a_path_given_to_jest_is_a_pattern_that_matches_only_it() -> None:
    path = "/work/a+b (copy)/test/x.test.js"
    assert re.fullmatch(pattern(path), path)
    assert not re.fullmatch(pattern("/work/a.b/x.test.js"), "/work/aXb/x.test.js")


def test_jest_says_no_test_ran_when_its_filter_selected_none() -> None:
    assert JEST.no_tests.search("Test Suites: 2 skipped, 0 of 2 total\nTests:       5 skipped, 5 total\n")
    assert JEST.no_tests.search("No tests found, exiting with code 1\n")
    assert not JEST.no_tests.search("Tests:       2 failed, 3 passed, 5 total\n")
    assert not JEST.no_tests.search("Tests:       3 skipped, 1 passed, 4 total\n")


def test_vitest_says_no_test_ran_when_its_filter_selected_none() -> None:
    assert VITEST.no_tests.search(" Test Files  2 skipped (2)\n      Tests  5 skipped (5)\n")
    assert not VITEST.no_tests.search("      Tests  2 failed | 3 passed (5)\n")
    assert not VITEST.no_tests.search("      Tests  1 passed | 3 skipped (4)\n")
