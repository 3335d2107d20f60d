"""Snapshots under races and hostile input: every failure in the envelope, the server still answering."""

from __future__ import annotations

import asyncio
import os

from conftest import PROGRAMS, marker, stdio_tools

SHOP = PROGRAMS / "shop.py"
CROWDED = PROGRAMS / "crowded.py"


def at(path, name: str) -> dict[str, object]:
    return {"file": str(path), "line": marker(path, name)}


async def test_stop_while_a_stop_is_being_recorded_leaves_the_server_answering():
    """The `continue` either reports the stop it reached (recorded before the `stop`) or says that `stop`
    ended the program: never the kill's exit code as if the program had ended by itself."""
    work = marker(CROWDED, "work")
    async with stdio_tools() as tools:
        for delay in (0.2, 0.5, 1.0):
            await tools.ok("debug", mode="source", path=str(CROWDED), stopOnEntry=True)
            await tools.ok("breakpoint", **at(CROWDED, "work"))

            async def stop_soon(delay: float = delay) -> dict:
                await asyncio.sleep(delay)  # the breakpoint is hit; reading its 30,000 globals takes a while
                return await tools.ok("stop")

            moved, stopped = await asyncio.gather(tools("continue"), stop_soon())
            assert stopped["state"] == "terminated"
            if moved["success"]:
                assert (moved["state"], moved.get("location", {}).get("line"), moved.get("cycle")) == ("paused", work, 2), moved
            elif moved["error"]["code"] == "TERMINATED":
                assert "another call (`stop`) ended the session" in moved["error"]["message"], moved
            else:  # the `stop` came first
                assert moved["error"]["code"] == "NO_SESSION", moved
        listed = await tools.client.list_tools()  # the server is still there
        assert any(t.name == "snapshot_create" for t in listed.tools)
        ctx = await tools.ok("debug", mode="source", path=str(SHOP), breakpoints=[at(SHOP, "start")])
        assert ctx["state"] == "paused" and ctx["cycle"] == 1


async def test_resuming_during_a_deep_snapshot_waits_for_it():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(CROWDED), breakpoints=[at(CROWDED, "work")])
        whole = (await tools.ok("snapshot_create", depth=2))["snapshot"]["variableCount"]
        made, moved = await asyncio.gather(tools.ok("snapshot_create", depth=2), tools.ok("continue"))
        assert made["snapshot"]["variableCount"] == whole and made["snapshot"]["cycle"] == 1
        assert moved["cycle"] == 2  # the next call of work()
        exported = await tools.ok("snapshot_export", snapshot_id=made["snapshot"]["id"])
        assert "unreadable" not in exported["data"]


async def test_stop_snapshots_cannot_be_deleted_and_t0_is_always_the_current_stop():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(SHOP), breakpoints=[at(SHOP, "start")])
        await tools.ok("step", mode="over")
        await tools.error("snapshot_delete", "INVALID_ARGUMENT", snapshot_id="@t0")
        await tools.error("snapshot_delete", "INVALID_ARGUMENT", snapshot_id="@c1")
        cycles = {}
        for ref in ("@t0", "@t-1"):
            data = (await tools.ok("snapshot_export", snapshot_id=ref))["data"]
            cycles[ref] = int(data.split('"cycle":')[1].split(",")[0])
        assert cycles == {"@t0": 2, "@t-1": 1}
        assert "changes" in await tools.ok("step", mode="over")


async def test_bad_paths_threads_and_ended_programs_get_clear_errors(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(SHOP), breakpoints=[at(SHOP, "start")])
        assert "regular file" in await tools.error("snapshot_import", "INVALID_ARGUMENT", path="/dev/zero")
        assert "regular file" in await tools.error("snapshot_import", "INVALID_ARGUMENT", path=str(fifo))
        assert "NUL" in await tools.error("snapshot_import", "INVALID_ARGUMENT", path="a\x00b")
        assert "NUL" in await tools.error("snapshot_export", "INVALID_ARGUMENT", snapshot_id="@t0", path="a\x00b")
        await tools.error("snapshot_export", "INVALID_ARGUMENT", snapshot_id="@t0", path=str(tmp_path / "no" / "x"))
        for thread in (999999, -1):
            assert "thread" in await tools.error("snapshot_create", "INVALID_ARGUMENT", thread_id=thread)
        made = await tools.ok("snapshot_create", depth=1)  # still usable
        await tools.ok("continue")
        ended = await tools.error("snapshot_create", "TERMINATED")
        assert "exited" in ended or "terminated" in ended
        assert (await tools.ok("snapshot_list"))["snapshots"][0]["id"] == made["snapshot"]["id"]


async def test_hard_limit_refuses_with_its_own_code():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(SHOP), breakpoints=[at(SHOP, "start")])
        for _ in range(500):
            await tools.ok("snapshot_create")
        message = await tools.error("snapshot_create", "SNAPSHOT_LIMIT")
        assert "500" in message
        await tools.ok("snapshot_delete")
        await tools.ok("snapshot_create")


async def test_an_object_replaced_by_another_shows_within_a_run():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(SHOP), breakpoints=[at(SHOP, "start")])
        before = (await tools.ok("snapshot_create"))["snapshot"]["id"]
        await tools.ok("set-variable", name="order", value="Order(Customer('Ada', 'Warsaw'))")
        after = (await tools.ok("snapshot_create"))["snapshot"]["id"]
        diff = (await tools.ok("snapshot_diff", snapshot_id_1=before, snapshot_id_2=after))["diff"]
        assert [m["path"] for m in diff["modified"]] == ["order"]  # same class, same contents, another object


async def test_a_snapshot_begun_while_the_program_resumes_is_refused_or_whole():
    """Taken whole at the stop it was asked at or at the next one (when the resume waited for it, or it
    for the resume), or refused as taken while the program runs; the `continue` reaches the next stop."""
    work = marker(CROWDED, "work")
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(CROWDED), breakpoints=[at(CROWDED, "work")])
        whole = (await tools.ok("snapshot_create", depth=2))["snapshot"]["variableCount"]
        for delay in (0.0, 0.02, 0.1):
            async def create_soon(delay: float = delay) -> dict:
                await asyncio.sleep(delay)
                return await tools("snapshot_create", depth=2)

            moved, made = await asyncio.gather(tools("continue"), create_soon())
            assert moved["success"] and (moved["state"], moved["location"]["line"], moved["cycle"]) == \
                ("paused", work, 2), moved
            if made["success"]:
                assert made["snapshot"]["variableCount"] == whole and made["snapshot"]["cycle"] in (1, 2), made
                assert made["snapshot"]["functionName"] == "work", made
            else:
                assert made["error"]["code"] == "NOT_PAUSED", made
                assert made["error"]["message"].startswith(("the program is being resumed", "the program moved on",
                                                            "Cannot create snapshot while process is running")), made
            await tools.ok("restart")


async def test_a_snapshot_taken_alongside_restart_is_carried_or_refused():
    """Taken whole at the old run's stop and kept across the restart, or refused with nothing saved."""
    async with stdio_tools() as tools:
        first = await tools.ok("debug", mode="source", path=str(SHOP), breakpoints=[at(SHOP, "start")])
        whole = (await tools.ok("snapshot_create", depth=2))["snapshot"]
        kept = [whole["id"]]
        for delay in (0.0, 0.05, 0.15):
            async def restart_soon(delay: float = delay) -> dict:
                await asyncio.sleep(delay)
                return await tools.ok("restart")

            made, again = await asyncio.gather(tools("snapshot_create", depth=2), restart_soon())
            assert (again["state"], again["location"], again["cycle"]) == ("paused", first["location"], 1), again
            listed = [s["id"] for s in (await tools.ok("snapshot_list"))["snapshots"]]
            if made["success"]:
                taken = made["snapshot"]
                assert (taken["cycle"], taken["functionName"], taken["variableCount"]) == \
                    (1, whole["functionName"], whole["variableCount"]), taken
                kept.append(taken["id"])
            else:
                assert made["error"]["code"] in ("NOT_PAUSED", "TERMINATED"), made
                assert "nothing was saved" in made["error"]["message"] or made["error"]["message"].startswith(
                    ("the program is being resumed", "Cannot create snapshot", "the debug session has ended")), made
            assert listed == kept, (listed, kept)  # what was taken is carried; nothing half-taken is
