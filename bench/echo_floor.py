"""The hand-off alone: a process that answers every JSON-RPC request on stdin at once, a `tools/call`
with a context recorded from a real step, with no MCP SDK, no asyncio and no validation.

Timed beside `mcp_floor.py` (the same answer through the SDK's server) it separates what moving a
message between two cold processes costs from what the SDK's request handling costs.

Run by bench/step_latency.py as `python bench/echo_floor.py RESULT.json`.
"""

import json
import sys

with open(sys.argv[1]) as file:
    recorded = {**json.load(file), "success": True}
call_result = {"content": [{"type": "text", "text": json.dumps(recorded, separators=(",", ":"))}],
               "structuredContent": recorded}
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    message = json.loads(line)
    if "id" not in message:
        continue  # a notification
    result = call_result if message.get("method") == "tools/call" else {}
    out.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}, separators=(",", ":")).encode())
    out.write(b"\n")
    out.flush()
