"""Several sessions at once, each under its `sessionId`: a server and its client debugged together, the
cap, the current session, names that are not sessions, resources of each, snapshots compared across
sessions. Through the real server over stdio, real debugpy and real programs."""

from __future__ import annotations

import re

import psutil

from conftest import PROGRAMS, Tools, locals_of, marker, stdio_tools, wait_until

SERVES = PROGRAMS / "serves.py"
FETCHES = PROGRAMS / "fetches.py"
COUNTER = PROGRAMS / "counter.py"
SPIN = PROGRAMS / "spin.py"
MAX_SESSIONS = 8  # README: "at most 8 sessions at once"


async def listening_port(tools: Tools, session_id: str) -> int:
    """The port serves.py printed (`Serving HTTP on 127.0.0.1 port N`), read from its session's output."""
    page = await wait_until(lambda: tools.ok("output", sessionId=session_id),
                            lambda page: re.search(r"port (\d+)", page["text"]) is not None, guard=60,
                            normal="printed within a second of the start", every=0.1)
    return int(re.search(r"port (\d+)", page["text"]).group(1))


async def test_a_server_and_its_client_are_debugged_together_each_by_its_session_id():
    async with stdio_tools() as tools:
        server = await tools.ok("debug", mode="source", path=str(SERVES), timeout=2,
                                breakpoints=[{"file": str(SERVES), "line": marker(SERVES, "handler")}])
        assert server["state"] == "running" and server["sessionId"] == "s1"
        port = await listening_port(tools, "s1")

        client = await tools.ok("debug", mode="source", path=str(FETCHES), args=[f"http://127.0.0.1:{port}/x"],
                                timeout=2, breakpoints=[{"file": str(FETCHES), "line": marker(FETCHES, "answered")}])
        assert client["sessionId"] == "s2" and client["state"] == "running"  # it waits for the paused server

        handling = await tools.ok("wait", sessionId="s1")  # the client's request stopped the server
        assert handling["sessionId"] == "s1" and handling["location"]["line"] == marker(SERVES, "handler")
        assert "parentId" not in handling
        assert locals_of(handling)["body"] == "b'hello\\n'"

        listed = (await tools.ok("info", type="sessions"))["items"]
        assert [(s["sessionId"], s["program"], s["adapter"], s["state"]) for s in listed] == [
            ("s1", str(SERVES), "debugpy", "paused"), ("s2", str(FETCHES), "debugpy", "running")]
        assert listed[0]["location"]["line"] == marker(SERVES, "handler") and "location" not in listed[1]
        assert listed[0]["current"] is True and "current" not in listed[1]  # its stop was the last returned
        assert all(psutil.Process(s["pid"]).is_running() for s in listed) and listed[0]["pid"] != listed[1]["pid"]

        # a call without sessionId acts on the current session: the server, whose stop came last
        assert (await tools.ok("evaluate", expression="self.path"))["value"] == "'/x'"
        await tools.ok("continue", timeout=2)  # the server answers and serves on
        answered = await tools.ok("wait", sessionId="s2")
        assert answered["sessionId"] == "s2" and answered["location"]["line"] == marker(FETCHES, "answered")
        assert locals_of(answered)["status"] == "200" and locals_of(answered)["body"] == "b'hello\\n'"
        evaluated = await tools.ok("evaluate", expression="len(body)")  # now the client is current
        assert evaluated == {"success": True, "sessionId": "s2", "value": "6", "type": "int"}

        ended = await tools.ok("stop", sessionId="s1")
        assert ended["sessionId"] == "s1" and not psutil.pid_exists(listed[0]["pid"])
        assert [s["sessionId"] for s in (await tools.ok("info", type="sessions"))["items"]] == ["s2"]
        message = await tools.error("context", "NO_SESSION", sessionId="s1")
        assert "s1 has ended" in message and "s2" in message, message  # never another session's answer
        assert (await tools.ok("context"))["sessionId"] == "s2"
        await tools.ok("stop")


async def test_a_name_that_is_no_session_is_refused_naming_those_running():
    async with stdio_tools() as tools:
        assert "start one with `debug`" in await tools.error("continue", "NO_SESSION", sessionId="s1")
        await tools.ok("debug", mode="source", path=str(COUNTER), stopOnEntry=True)
        for tool, arguments in [("continue", {}), ("step", {"mode": "over"}), ("evaluate", {"expression": "1"}),
                                ("breakpoint", {"file": str(COUNTER), "line": 3}), ("output", {}),
                                ("snapshot_list", {}), ("stop", {}), ("restart", {}), ("info", {"type": "modules"})]:
            message = await tools.error(tool, "NO_SESSION", sessionId="s9", **arguments)
            assert message == f"no session 's9'; running: s1 ({COUNTER}, paused)", (tool, message)
        assert (await tools.ok("step", mode="over"))["sessionId"] == "s1"  # and the session goes on
        await tools.ok("stop")
        message = await tools.error("context", "NO_SESSION")
        assert message == "no debug session; start one with `debug`", message


async def test_stopping_the_current_session_leaves_the_others_but_none_current():
    """A call without sessionId after its session ended must not act on another one."""
    async with stdio_tools() as tools:
        first = await tools.ok("debug", mode="source", path=str(COUNTER), stopOnEntry=True)
        second = await tools.ok("debug", mode="source", path=str(SPIN), stopOnEntry=True)
        assert (first["sessionId"], second["sessionId"]) == ("s1", "s2")
        assert (await tools.ok("context"))["location"]["file"].endswith("spin.py")  # the one last started
        await tools.ok("stop")
        message = await tools.error("step", "NO_SESSION", mode="over")
        assert "give sessionId" in message and f"s1 ({COUNTER}, paused)" in message, message
        assert (await tools.ok("step", mode="over", sessionId="s1"))["sessionId"] == "s1"
        assert (await tools.ok("context"))["sessionId"] == "s1"  # its stop was the last returned
        stopped = await tools.ok("stop", all=True)
        assert [s["sessionId"] for s in stopped["stopped"]] == ["s1"]
        assert await tools.ok("info", type="sessions") == {"success": True, "type": "sessions", "items": [],
                                                           "total": 0, "truncated": False}


async def test_at_most_eight_sessions_run_at_once_and_stop_all_ends_them():
    async with stdio_tools() as tools:
        pids = []
        for n in range(MAX_SESSIONS):
            started = await tools.ok("debug", mode="source", path=str(SPIN), stopOnEntry=True)
            assert started["sessionId"] == f"s{n + 1}"
            pids.append(next(s["pid"] for s in (await tools.ok("info", type="sessions"))["items"]
                             if s["sessionId"] == started["sessionId"]))
        message = await tools.error("debug", "SESSION_LIMIT", mode="source", path=str(SPIN), stopOnEntry=True)
        assert message.startswith(f"{MAX_SESSIONS} sessions run already") and f"s8 ({SPIN}, paused)" in message
        assert len((await tools.ok("info", type="sessions"))["items"]) == MAX_SESSIONS  # nothing was started
        stopped = await tools.ok("stop", all=True)
        assert sorted(s["sessionId"] for s in stopped["stopped"]) == sorted(f"s{n + 1}" for n in range(MAX_SESSIONS))
        assert not any(psutil.pid_exists(pid) for pid in pids)
        again = await tools.ok("debug", mode="source", path=str(SPIN), stopOnEntry=True)
        assert again["sessionId"] == "s9"  # a handle is never given twice
        await tools.ok("stop")


async def test_each_sessions_resources_and_the_list_of_sessions():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(COUNTER), args=["3"],
                       breakpoints=[{"file": str(COUNTER), "line": marker(COUNTER, "work")}])
        await tools.ok("debug", mode="source", path=str(SPIN), stopOnEntry=True)
        listed = [str(r.uri) for r in (await tools.client.list_resources()).resources]
        assert "debugger://sessions" in listed and "debugger://session" in listed
        templates = [t.uri_template for t in (await tools.client.list_resource_templates()).resource_templates]
        assert "debugger://sessions/{sessionId}/{document}" in templates
        sessions = await tools.read_json("debugger://sessions")
        assert [(s["sessionId"], s["state"]) for s in sessions["sessions"]] == [("s1", "paused"), ("s2", "paused")]
        first = await tools.read_json("debugger://sessions/s1/session")
        assert first["currentLocation"]["line"] == marker(COUNTER, "work") and first["commandLineArgs"] == ["3"]
        current = await tools.read_json("debugger://session")
        assert current["executablePath"] == str(SPIN)  # the current session: the one last started
        breakpoints = await tools.read_json("debugger://sessions/s1/breakpoints")
        assert [b["line"] for b in breakpoints["breakpoints"]] == [marker(COUNTER, "work")]
        assert (await tools.read_json("debugger://sessions/s2/breakpoints"))["breakpoints"] == []
        try:
            await tools.client.read_resource("debugger://sessions/s7/session")
        except Exception as exc:  # noqa: BLE001 - the JSON-RPC error is checked below
            assert getattr(exc, "error", None) is not None and exc.error.data["code"] == "NO_SESSION", exc
        else:
            raise AssertionError("a session that does not exist was read")
        await tools.ok("stop", all=True)
        assert (await tools.client.list_resources()).resources == []


async def test_snapshots_of_two_sessions_are_compared_the_broken_and_the_fixed_run():
    """The same program with two inputs, at the same breakpoint: a snapshot of each, and their diff."""
    async with stdio_tools() as tools:
        at_work = [{"file": str(COUNTER), "line": marker(COUNTER, "work")}]
        await tools.ok("debug", mode="source", path=str(COUNTER), args=["3"], breakpoints=at_work)
        await tools.ok("continue")  # i = 2
        broken = (await tools.ok("snapshot_create", label="broken"))["snapshot"]["id"]
        fixed_run = await tools.ok("debug", mode="source", path=str(COUNTER), args=["3"], breakpoints=at_work)
        assert locals_of(fixed_run)["i"] == "1"
        fixed = (await tools.ok("snapshot_create", label="fixed"))["snapshot"]["id"]
        compared = await tools.ok("snapshot_diff", snapshot_id_1=broken, snapshot_id_2=fixed)
        assert compared["sessionId"] == "s2"
        changed = {m["path"]: (m["oldValue"], m["newValue"]) for m in compared["diff"]["modified"]}
        assert changed["i"] == ("2", "1") and changed["value"][0] == "4", compared
        # `@t0` is the session's own stop: s1's is i = 2, s2's i = 1
        same = await tools.ok("snapshot_diff", snapshot_id_1="@t0", snapshot_id_2=broken, sessionId="s1")
        assert same["diff"]["modified"] == [], same
        other = await tools.ok("snapshot_diff", snapshot_id_1="@t0", snapshot_id_2=broken)
        assert {m["path"] for m in other["diff"]["modified"]} >= {"i"}
        await tools.ok("stop", all=True)


async def test_each_session_keeps_its_own_threads_while_it_runs():
    """A running session's threads document shows the threads of its last stop, marked stale, whatever
    other session's threads were read meanwhile (one cache was kept, for the session read last)."""
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(SPIN), stopOnEntry=True)
        paused = await tools.read_json("debugger://sessions/s1/threads")
        assert paused["threads"] and paused["stale"] is False, paused
        assert (await tools.ok("continue", timeout=0.5))["state"] == "running"
        await tools.ok("debug", mode="source", path=str(COUNTER), stopOnEntry=True)
        assert (await tools.read_json("debugger://sessions/s2/threads"))["threads"]
        running = await tools.read_json("debugger://sessions/s1/threads")
        assert running == {**paused, "stale": True}, running
        await tools.ok("stop", all=True)


async def test_programs_that_ended_do_not_count_and_the_oldest_past_sixteen_are_forgotten(tmp_path):
    """Eight programs ran to their end: a ninth `debug` still starts (issue 34: it got SESSION_LIMIT, listing
    eight terminated sessions). Ended ones stay for `output` and `restart`; past 16 the oldest are forgotten."""
    quick = tmp_path / "quick.py"
    quick.write_text("import sys\nprint('ran', sys.argv[1])\n")
    async with stdio_tools() as tools:
        for n in range(1, 19):  # 18 programs, each run to its end
            ended = await tools.ok("debug", mode="source", path=str(quick), args=[str(n)])
            assert ended["state"] == "terminated" and ended["sessionId"] == f"s{n}", ended
        listed = (await tools.ok("info", type="sessions"))["items"]
        assert [s["sessionId"] for s in listed] == [f"s{n}" for n in range(3, 19)]  # the newest 16
        assert all(s["state"] == "terminated" for s in listed), listed
        assert "forgotten" in await tools.error("output", "NO_SESSION", sessionId="s1")
        assert "ran 3" in (await tools.ok("output", sessionId="s3"))["text"]
        again = await tools.ok("restart", sessionId="s3")  # an ended program is run again under its handle
        assert again["state"] == "terminated" and again["sessionId"] == "s3", again
        for _ in range(8):  # eight that run, beside the sixteen that ended: the cap counts these alone
            await tools.ok("debug", mode="source", path=str(SPIN), stopOnEntry=True)
        message = await tools.error("debug", "SESSION_LIMIT", mode="source", path=str(SPIN), stopOnEntry=True)
        assert message.startswith("8 sessions run already") and "terminated" not in message, message
        await tools.ok("stop", all=True)
