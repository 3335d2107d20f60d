"""Threads a pause cannot stop (issue 34 point 7): blocked inside a call into C, where pydevd never gets to
suspend them. `pause` says so at once, `info {type: "threads"}` and `context {threadId}` show where each
thread waits, its stack read by the process itself."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import PROGRAMS, marker, stdio_tools

DEADLOCK = PROGRAMS / "deadlock.py"
BLOCKED = PROGRAMS / "blocked_in_c.py"


def by_name(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {thread["name"]: thread for thread in items}


def has_frame(thread: dict[str, Any], function: str, line: int) -> bool:
    return any(f["function"] == function and f.get("line") == line for f in thread["frames"])


@pytest.mark.parametrize("just_my_code", [True, False])
async def test_a_pause_of_a_deadlock_says_no_thread_could_stop_and_where_each_waits(just_my_code: bool) -> None:
    async with stdio_tools() as tools:
        started = await tools.ok("debug", mode="source", path=str(DEADLOCK), timeout=2, justMyCode=just_my_code)
        assert started["state"] == "running"
        paused = await tools.ok("pause")  # answered without waiting out its timeout (10 s)
        assert paused["state"] == "running" and "could stop no thread" in paused["description"], paused
        assert "info {type: \"threads\"}" in paused["hint"]
        at = {t["name"]: t["at"]["line"] for t in paused["threads"]}
        assert at["transfer"] == marker(DEADLOCK, "transfer waits") and at["refund"] == marker(DEADLOCK, "refund waits")
        assert at["MainThread"] == marker(DEADLOCK, "main joins")

        listed = await tools.ok("info", type="threads")
        threads = by_name(listed["items"])
        assert set(threads) == {"MainThread", "transfer", "refund"} and listed["total"] == 3
        for name in ("transfer", "refund"):
            thread = threads[name]
            assert thread["state"] == "blocked" and "futex" in thread["waitingIn"] and thread["readFromProcess"]
            assert has_frame(thread, name, marker(DEADLOCK, f"{name} waits")), thread
            assert thread["frames"][0]["code"].startswith(("with first:", "with second:"))
        assert threads["MainThread"]["state"] == "blocked"
        assert has_frame(threads["MainThread"], "main", marker(DEADLOCK, "main joins"))

        one = await tools.ok("context", threadId=threads["transfer"]["id"])
        assert one["state"] == "running" and one["threadId"] == threads["transfer"]["id"]
        assert one["thread"]["state"] == "blocked" and one["thread"]["readFromProcess"]
        assert has_frame(one["thread"], "transfer", marker(DEADLOCK, "transfer waits"))
        assert "scopes" not in one and "frames" not in one and "without frame ids or variables" in one["description"]
        assert "unknown threadId" in await tools.error("context", "INVALID_ARGUMENT", threadId=999)
        await tools.ok("stop")


async def test_threads_blocked_in_c_calls_are_shown_beside_the_thread_that_stopped() -> None:
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(BLOCKED), timeout=2)
        paused = await tools.ok("pause")
        assert paused["state"] == "paused" and paused["location"]["line"] == marker(BLOCKED, "main computes")

        threads = by_name((await tools.ok("info", type="threads", maxFrames=3))["items"])
        main = threads["MainThread"]
        assert main["state"] == "stopped" and "readFromProcess" not in main
        assert main["frames"][0]["line"] == marker(BLOCKED, "main computes") and "id" in main["frames"][0]
        waits = {"consume": ("futex", "consume waits"), "listen": ("recv", "listen waits"), "nap": ("sleep", "nap sleeps")}
        for name, (call, line) in waits.items():
            thread = threads[name]
            assert thread["state"] == "blocked" and call in thread["waitingIn"] and thread["readFromProcess"], thread
            assert has_frame(thread, name, marker(BLOCKED, line)), thread
        pool = next(t for name, t in threads.items() if name.startswith("pool"))
        assert pool["state"] == "blocked" and pool["frames"][0]["function"] == "_worker"  # library code, shown
        assert len(pool["frames"]) <= 3 and pool["totalFrames"] >= len(pool["frames"])

        waiting = await tools.ok("context", threadId=threads["consume"]["id"])
        assert waiting["state"] == "paused" and waiting["thread"]["state"] == "blocked" and "scopes" not in waiting
        assert has_frame(waiting["thread"], "consume", marker(BLOCKED, "consume waits"))
        stopped = await tools.ok("context", threadId=main["id"])  # the thread that stopped: its variables
        assert "thread" not in stopped and stopped["scopes"]
        await tools.ok("stop")
