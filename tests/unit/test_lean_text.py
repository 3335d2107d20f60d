"""The text a model reads of a result is the structured content's lean view (issue 38 point 2): what only
restates what the answer says elsewhere, or what is always so, is left out of the text, and nothing else; the
structured content keeps every field (tests/conftest.py checks every answer's text against it)."""

from __future__ import annotations

import toons

from dap2mcp.server.results import as_text, lean_view

STEP = {
    "state": "paused", "sessionId": "s1", "cycle": 4, "reason": "step", "threadId": 1,
    "location": {"file": "loop.py", "line": 8, "function": "work", "text": "for i in range(n):"},
    "frames": [{"id": 2, "function": "work", "file": "loop.py", "line": 8},
               {"id": 3, "function": "<module>", "file": "loop.py", "line": 16}],
    "scopes": [{"name": "Locals", "variables": [{"name": "n", "value": "10", "type": "int"}]},
               {"name": "Globals", "variables": [], "expensive": True}],
    "changes": {"since": 3, "added": [{"name": "last", "type": "NoneType", "value": "None"}]},
    "success": True,
}


def test_a_steps_text_leaves_out_what_it_says_elsewhere_and_keeps_the_rest():
    lean = lean_view(STEP)
    assert "success" not in lean
    assert lean["location"] == {"text": "for i in range(n):"}  # file, line and function: the first frame's
    assert lean["scopes"][1] == "Globals"  # named, not listed
    assert lean["changes"] == {"added": STEP["changes"]["added"]}  # since the previous stop, as always
    assert {key: value for key, value in lean.items() if key not in ("location", "scopes", "changes")} == \
        {key: value for key, value in STEP.items() if key not in ("location", "scopes", "changes", "success", "state")}
    assert lean["frames"] == STEP["frames"] and lean["scopes"][0] == STEP["scopes"][0]
    assert toons.loads(as_text(STEP)) == lean  # what the model reads
    assert STEP["success"] is True and STEP["location"]["file"] == "loop.py"  # the structured content is not touched


def test_the_only_sessions_name_a_stops_state_and_an_untruncated_output_are_left_to_the_structured_content():
    lean = lean_view(STEP, lone_session=True)
    assert "sessionId" not in lean and "state" not in lean and lean["reason"] == "step"
    assert lean_view(STEP)["sessionId"] == "s1"  # another session is open: which one is news
    assert "reason" not in lean_view(STEP, asked="step") and lean_view(STEP, asked="continue")["reason"] == "step"
    ended = {"state": "terminated", "sessionId": "s1", "exitCode": 0, "output": {"text": "ok\n", "truncated": False}}
    assert lean_view(ended) == {"state": "terminated", "sessionId": "s1", "exitCode": 0, "output": {"text": "ok\n"}}
    cut = {**ended, "output": {"text": "…", "truncated": True}}
    assert lean_view(cut)["output"] == cut["output"]
    assert lean_view({"state": "running", "sessionId": "s1"}) == {"state": "running", "sessionId": "s1"}


def test_what_says_something_stays_in_the_text():
    elsewhere = {**STEP, "location": {**STEP["location"], "line": 9}}  # focused below a library frame
    assert lean_view(elsewhere)["location"] == elsewhere["location"]
    older = {**STEP, "changes": {"since": 1, "modified": []}}  # changes against an earlier stop than the last
    assert lean_view(older)["changes"] == older["changes"]
    counted = {**STEP, "scopes": [{"name": "Globals", "variables": [], "expensive": True, "total": 42}]}
    assert lean_view(counted)["scopes"] == counted["scopes"]  # a count says something
    failed = {"success": False, "error": {"code": "NO_SESSION", "message": "no debug session"}}
    assert lean_view(failed) == failed
    assert lean_view({"value": "3", "type": "int", "success": True}) == {"value": "3", "type": "int"}
