"""The schema checks the other tests rely on do catch what they are for."""

from __future__ import annotations

import json
from pathlib import Path

import wire_check


def problems_of(action) -> list[str]:
    before = len(wire_check.PROBLEMS)
    action()
    found = wire_check.PROBLEMS[before:]
    del wire_check.PROBLEMS[before:]
    return found


def test_mcp_results_notifications_and_errors_are_checked():
    good = {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "hi"}], "isError": False}}
    assert problems_of(lambda: wire_check.check_mcp("2025-11-25", "tools/call", good)) == []
    bad = {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text"}]}}  # text missing
    assert problems_of(lambda: wire_check.check_mcp("2025-11-25", "tools/call", bad))
    listed = {"jsonrpc": "2.0", "id": 2, "result": {"resources": [{"uri": "debugger://x"}]}}  # name missing
    assert problems_of(lambda: wire_check.check_mcp("2026-07-28", "resources/list", listed))
    updated = {"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {}}  # uri missing
    assert problems_of(lambda: wire_check.check_mcp("2025-11-25", None, updated))
    error = {"jsonrpc": "2.0", "id": 3, "error": {"code": "oops", "message": "x"}}  # code must be an integer
    assert problems_of(lambda: wire_check.check_mcp("2025-11-25", "resources/read", error))
    assert problems_of(lambda: wire_check.check_mcp("2025-11-25", "made/up", good))  # unmapped: flagged


def test_dap_requests_are_checked(tmp_path: Path):
    trace = tmp_path / "trace.jsonl"
    sent = [
        {"seq": 1, "type": "request", "command": "next", "arguments": {"threadId": 1}},
        {"seq": 2, "type": "request", "command": "next", "arguments": {}},  # threadId missing
        {"seq": 3, "type": "request", "command": "setBreakpoints", "arguments": {"source": {"path": "/x.py"},
                                                                                 "breakpoints": [{"line": "4"}]}},
    ]
    received = {"seq": 9, "type": "event", "event": "whatever"}  # what the adapter sent is not checked
    trace.write_text("".join(json.dumps({"dir": "sent", "message": m}) + "\n" for m in sent)
                     + json.dumps({"dir": "received", "message": received}) + "\n")
    found = problems_of(lambda: wire_check.check_dap_trace(trace))
    assert len(found) == 2 and "NextRequest" in found[0] and "SetBreakpointsRequest" in found[1]


def test_the_schemas_are_carried_in_the_repository():
    """A clean clone in a folder with nothing beside it must find them: no path may leave the repository."""
    root = Path(wire_check.__file__).resolve().parents[1]
    assert wire_check.SPEC.resolve().is_relative_to(root)
    for name in ("debugAdapterProtocol.json", "mcp-schema-2025-11-25.json", "mcp-schema-2026-07-28.json"):
        assert (wire_check.SPEC / name).is_file()
    assert sorted(p.name for p in wire_check.SPEC.glob("LICENSE-*")) == [
        "LICENSE-debug-adapter-protocol-code.txt", "LICENSE-debug-adapter-protocol-docs.txt",
        "LICENSE-model-context-protocol.txt"]
