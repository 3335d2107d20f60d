"""The workflow prompts over stdio: listed with their arguments, rendered with the agent's values, and the
calls of one followed as written on a real failing test (pytest under debugpy) to the failure."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from conftest import stdio_tools

CALL = re.compile(r"`([a-z_-]+) (\{[^`<>]*\})`")  # a call with nothing left for the agent to fill in

FAILING = '''import json


def total(text):
    order = json.loads(text)
    return sum(item["price"] * item["count"] for item in order["items"])


def test_total():
    paid = total('{"items": [{"price": 3, "count": 2}, {"price": 5, "count": 1}]}')
    assert paid == 12, f"paid {paid}"
'''


async def test_prompts_are_listed_and_one_leads_to_the_failure(tmp_path: Path) -> None:
    (tmp_path / "test_order.py").write_text(FAILING)
    async with stdio_tools() as tools:
        client = tools.client
        listed = {prompt.name: prompt for prompt in (await client.list_prompts()).prompts}
        assert set(listed) == {"debug-failing-test", "diagnose-crash", "find-who-changed", "attach-to-service",
                               "compare-runs"}
        assert [(a.name, a.required) for a in listed["find-who-changed"].arguments or []] \
            == [("program", True), ("variable", True), ("function", False)]

        got = await client.get_prompt("debug-failing-test", {"test": "test_order.py::test_total", "cwd": str(tmp_path)})
        assert [m.role for m in got.messages] == ["user"]
        text = got.messages[0].content.text
        tool, body = CALL.search(text).groups()
        arguments = json.loads(body)
        assert tool == "debug" and arguments["path"].startswith("-m pytest test_order.py::test_total")
        stop = await tools.ok(tool, **arguments, python=sys.executable)  # pytest is in this interpreter
        assert stop["state"] == "paused" and stop["reason"] == "exception", stop
        assert "AssertionError" in json.dumps(stop["exception"]) and "paid 11" in json.dumps(stop["exception"])
        assert stop["location"]["function"] == "test_total"  # where the test failed, not inside pytest
        assert stop["scopes"][0]["variables"][-1] == {"name": "paid", "value": "11", "type": "int"}
        await tools.ok("stop")
