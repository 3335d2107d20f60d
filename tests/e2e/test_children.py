"""A Python program's child processes debugged as sessions of their own (debugpy's `subProcess`, answered
through the DAP `startDebugging` reverse request): a multiprocessing pool started by spawn and by fork,
`subprocess` running Python, `os.fork`; their stops returned by the parent's calls, breakpoints that apply
in them, `childProcesses: false`. Through the real server over stdio, real debugpy and real processes."""

from __future__ import annotations

import psutil

from conftest import PROGRAMS, Tools, locals_of, marker, stdio_tools, wait_until

WORKERS = PROGRAMS / "pool.py"
FORKS = PROGRAMS / "forks.py"
EXITS = PROGRAMS / "child_exits.py"
SLOW = PROGRAMS / "slow_to_exit.py"


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE  # a zombie has ended; its parent reaps it
    except psutil.Error:
        return False


def at(path, name: str) -> dict[str, object]:
    return {"file": str(path), "line": marker(path, name)}


async def sessions(tools: Tools) -> list[dict[str, object]]:
    return (await tools.ok("info", type="sessions"))["items"]


async def run_pool(tools: Tools, method: str) -> None:
    """Each of the three squares stops in a worker's session; then the program ends in its first process."""
    stop = await tools.ok("debug", mode="source", path=str(WORKERS), args=[method], breakpoints=[at(WORKERS, "worker")])
    seen = []
    while stop["state"] == "paused":
        assert stop["parentId"] == "s1" and stop["sessionId"] != "s1", stop
        assert stop["location"]["line"] == marker(WORKERS, "worker") and stop["breakpointIds"] == [1], stop
        seen.append(int(locals_of(stop)["n"]))
        listed = {s["sessionId"]: s for s in await sessions(tools)}
        assert listed[stop["sessionId"]]["program"] in ("multiprocessing worker", str(WORKERS)), listed
        assert listed[stop["sessionId"]]["state"] == "paused" and listed["s1"]["state"] == "running"
        assert psutil.Process(listed[stop["sessionId"]]["pid"]).ppid() == listed["s1"]["pid"]
        stop = await tools.ok("continue")  # the worker's session: current, its stop being the last returned
        if stop["state"] == "terminated" and stop.get("parentId") == "s1":  # that worker ended: its parent is current
            assert "session s1, its parent, is the current session again" in stop["hint"], stop
            stop = await tools.ok("wait")
    assert sorted(seen) == [1, 2, 3]
    assert stop["sessionId"] == "s1" and stop["state"] == "terminated" and stop["exitCode"] == 0, stop
    assert "total 14" in (await tools.ok("output", sessionId="s1"))["text"]
    children = [s for s in await sessions(tools) if s.get("parentId") == "s1"]
    assert children and all(s["state"] == "terminated" for s in children)  # kept until the parent's session ends
    stopped = await tools.ok("stop", all=True)
    assert {s["sessionId"] for s in stopped["stopped"]} == {"s1"} | {s["sessionId"] for s in children}
    assert await sessions(tools) == []


async def test_a_breakpoint_in_a_pool_worker_started_by_spawn_stops_in_the_workers_session():
    async with stdio_tools() as tools:
        await run_pool(tools, "spawn")


async def test_a_breakpoint_in_a_forked_pool_worker_stops_there_instead_of_hanging_the_program():
    """Before child sessions, a forked worker reaching a breakpoint was suspended for ever, and nothing said so."""
    async with stdio_tools() as tools:
        await run_pool(tools, "fork")


async def test_subprocess_running_python_and_os_fork_are_debugged_too():
    async with stdio_tools() as tools:
        for how, label, parent_saw in [("subprocess", "from subprocess", 0), ("fork", "forked", 3)]:
            stop = await tools.ok("debug", mode="source", path=str(FORKS), args=[how], breakpoints=[at(FORKS, "child")])
            assert stop["parentId"] is not None and stop["location"]["line"] == marker(FORKS, "child"), (how, stop)
            child, parent = stop["sessionId"], stop["parentId"]
            assert locals_of(stop)["label"] == repr(label)
            assert (await tools.ok("evaluate", expression="doubled"))["value"] == str(2 * len(label))
            ended = await tools.ok("continue")
            assert ended["sessionId"] == child and ended["state"] == "terminated", ended
            # its exit code, which debugpy does not report for a child and its parent reaps at once
            assert ended["exitCode"] == parent_saw and "could not be read" not in ended["hint"], ended
            listed = {s["sessionId"]: s for s in await sessions(tools)}
            assert listed[child]["state"] == "terminated" and listed[child]["exitCode"] == parent_saw, listed
            last = await tools.ok("wait")
            assert last["sessionId"] == parent and last["state"] == "terminated" and last["exitCode"] == 0, last
            assert f"parent saw {parent_saw}" in (await tools.ok("output", sessionId=parent))["text"]
            await tools.ok("stop", sessionId=parent)


async def test_a_breakpoint_set_while_the_parent_is_paused_applies_in_children_started_later():
    async with stdio_tools() as tools:
        first = await tools.ok("debug", mode="source", path=str(WORKERS), args=["fork"], stopOnEntry=True)
        assert first["sessionId"] == "s1" and "parentId" not in first
        added = await tools.ok("breakpoint", **at(WORKERS, "worker"))
        stop = await tools.ok("continue")
        assert stop["parentId"] == "s1" and stop["breakpointIds"] == [added["id"]], stop
        await tools.ok("stop")  # the current session: the worker's, which is let go of and runs on
        assert all(s["sessionId"] != stop["sessionId"] for s in await sessions(tools))
        await tools.ok("clear-breakpoints", all=True, sessionId="s1")
        listed = await sessions(tools)
        pids = [s["pid"] for s in listed]
        await tools.ok("stop", sessionId="s1")  # ends the program and every child session with it
        assert await sessions(tools) == []
        assert not any(alive(pid) for pid in pids)


async def test_with_child_processes_off_the_workers_run_undebugged_and_the_program_ends():
    async with stdio_tools() as tools:
        for method in ("fork", "spawn"):
            ended = await tools.ok("debug", mode="source", path=str(WORKERS), args=[method], childProcesses=False,
                                   breakpoints=[at(WORKERS, "worker")], timeout=60)
            assert ended["sessionId"] == "s1" if method == "fork" else ended["sessionId"] == "s2"
            assert ended["state"] == "terminated" and ended["exitCode"] == 0, (method, ended)
            assert "total 14" in ended["output"]["text"]
            assert [s["sessionId"] for s in await sessions(tools)] == [ended["sessionId"]]
            await tools.ok("stop")


async def test_a_breakpoint_set_in_a_childs_session_gets_the_programs_next_id_never_a_cleared_one():
    """A breakpoint is the program's, under one id in all its sessions: the worker's session, started while
    the parent held breakpoint 1 only (2 cleared), once gave a breakpoint set there id 2 again, and the
    parent's copy id 3, so the stop it made in the parent named an id the agent was never given."""
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(WORKERS), args=["fork"], stopOnEntry=True)
        worker = (await tools.ok("breakpoint", **at(WORKERS, "worker")))["id"]
        cleared = (await tools.ok("breakpoint", **at(WORKERS, "total")))["id"]
        await tools.ok("clear-breakpoints", ids=[cleared])
        stop = await tools.ok("continue")
        assert stop["parentId"] == "s1" and stop["breakpointIds"] == [worker], stop
        total = await tools.ok("breakpoint", **at(WORKERS, "total"))  # in the worker's session, the current one
        assert total["sessionId"] == stop["sessionId"] and total["id"] not in (worker, cleared), total
        await tools.ok("clear-breakpoints", ids=[worker])  # in every process: the workers run on
        while not (stop["state"] == "paused" and stop["sessionId"] == "s1"):
            assert stop["state"] != "terminated" or stop.get("parentId") == "s1", stop
            stop = await tools.ok("continue" if stop["state"] == "paused" else "wait")
        assert stop["location"]["line"] == marker(WORKERS, "total") and stop["breakpointIds"] == [total["id"]], stop
        await tools.ok("stop", all=True)


async def test_a_seventeenth_child_running_beside_sixteen_runs_undebugged():
    """docs/sessions.md: "At most 16 child sessions running at once under one `debug`; more children [...]
    run undebugged". 17 children started at once, each with a breakpoint to stop at: 16 are sessions,
    held paused there, and one ran past it (it printed `passed`)."""
    program = PROGRAMS / "children_at_once.py"
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(program), args=["17"], timeout=120,
                              breakpoints=[at(program, "held")])
        assert stop["state"] == "paused" and stop["parentId"] == "s1", stop

        async def seen() -> tuple[list[dict[str, object]], list[str]]:  # the children debugged, those that ran past
            debugged = [s for s in await sessions(tools) if s.get("parentId") == "s1"]
            passed = [line for line in (await tools.ok("output", sessionId="s1"))["text"].splitlines()
                      if line.startswith("passed ")]
            return debugged, passed

        def settled(both: tuple[list[dict[str, object]], list[str]]) -> bool:  # every child ran past or is held
            return len(both[0]) + len(both[1]) >= 17 and all(s["state"] == "paused" for s in both[0])

        debugged, passed = await wait_until(seen, settled, guard=180,
                                            normal="10 to 20 s for 17 children on two busy cores", every=0.5)
        assert len(debugged) == 16 and len(passed) == 1, (debugged, passed)
        assert all(s["state"] == "paused" for s in debugged), debugged
        await tools.ok("stop", all=True)


async def test_children_that_ended_leave_room_for_more_child_sessions():
    """The 16-child cap is on children running at once: the 17th child a program starts, one after
    another, is debugged too (before, the children that had ended counted, and it ran past its breakpoint);
    the ended ones listed stay bounded by the cap (docs/sessions.md: "the last 16")."""
    respawns = PROGRAMS / "respawns.py"
    cap = 16  # docs/limits.md: "16 running at once, more run undebugged; 16 ended ones listed"
    times = cap + 1
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(respawns), args=[str(times)], timeout=120, breakpoints=[
            {**at(respawns, "respawned"), "condition": f"number == {times - 1}"}])
        assert stop["state"] == "paused" and stop["parentId"] == "s1", stop
        assert locals_of(stop)["number"] == str(times - 1)
        listed = await sessions(tools)
        ended = [s for s in listed if s.get("parentId") == "s1" and s["state"] == "terminated"]
        assert len(ended) == cap - 1 and len(listed) == cap + 1, listed
        assert "forgotten" in await tools.error("context", "NO_SESSION", sessionId="s2")  # the first child
        ended = await tools.ok("continue")
        assert ended["sessionId"] == stop["sessionId"] and ended["state"] == "terminated", ended
        last = await tools.ok("wait")
        assert last["sessionId"] == "s1" and last["exitCode"] == 0 and f"children {times} failed 0" in \
            (await tools.ok("output"))["text"], last
        await tools.ok("stop", all=True)


async def test_a_child_run_with_python_c_is_listed_by_its_command_after_it_ended():
    """debugpy names such a child `-c`; its command line is read while it runs (before, only when it was
    first listed, by which time it had ended, so it stayed `-c`)."""
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", mode="source", path=str(FORKS), args=["inline"])
        assert ended["state"] == "terminated" and "5\nparent saw 0" in ended["output"]["text"], ended
        child = [s for s in await sessions(tools) if s.get("parentId") == "s1"]
        assert len(child) == 1 and "-c print(2 + 3)" in child[0]["program"], child
        await tools.ok("stop")


async def test_each_way_a_child_process_ends_leaves_its_exit_code_in_info_sessions():
    """multiprocessing's children: a return, sys.exit(4), an uncaught exception, os._exit(6) and SIGTERM; by fork
    (each ends with os._exit) and by spawn (sys.exit). No adapter reports a child's exit code and the program
    reaps each at once; the codes listed are those the program itself saw (SIGTERM as a shell says it)."""
    async with stdio_tools() as tools:
        for method in ("fork", "spawn"):
            end = await tools.ok("debug", mode="source", path=str(EXITS), args=[method], timeout=120)
            while end.get("parentId") is not None or end["state"] != "terminated":
                end = await tools.ok("continue" if end["state"] == "paused" else "wait", timeout=120)
            assert end["exitCode"] == 0, end
            first = end["sessionId"]
            saw = {}
            for line in (await tools.ok("output", sessionId=first))["text"].splitlines():
                if line.split(" ")[0] in ("returns", "exits", "raises", "leaves", "killed"):
                    name, pid, code = line.split(" ")
                    saw[int(pid)] = (name, int(code))
            assert [code for _, code in saw.values()] == [0, 4, 1, 6, -15], saw
            listed = {s["pid"]: s for s in await sessions(tools) if s.get("parentId") == first}
            assert {pid: (name, listed[pid]["exitCode"]) for pid, (name, _) in saw.items()} == {
                pid: (name, 128 + 15 if code == -15 else code) for pid, (name, code) in saw.items()}, listed
            assert all(listed[pid]["state"] == "terminated" for pid in saw)
            await tools.ok("stop", all=True)


async def test_a_child_still_ending_has_its_exit_code_waited_for_or_called_not_yet_known():
    """A child's session ends when its debugger's connection closes, which can be well before its process ends
    (its interpreter still shutting down). The answer waits a little for the exit code; past that it is not yet
    known, and `info sessions` shows it once the process has ended. Before, the answer said it could not be read."""
    async with stdio_tools() as tools:
        for seconds in ("0.3", "3"):
            stop = await tools.ok("debug", mode="source", path=str(SLOW), args=["parent", seconds],
                                  breakpoints=[at(SLOW, "child")])
            child, parent = stop["sessionId"], stop["parentId"]
            assert parent is not None and stop["state"] == "paused", stop
            ended = await tools.ok("continue")
            assert ended["sessionId"] == child and ended["state"] == "terminated", ended
            assert "could not be read" not in ended["hint"], ended
            if seconds == "0.3":  # waited for
                assert ended["exitCode"] == 3 and "not yet known" not in ended["hint"], ended
            else:
                assert "exitCode" not in ended and "exit code is not yet known" in ended["hint"], ended
            async def listed_now() -> dict:
                return {s["sessionId"]: s for s in await sessions(tools)}

            listed = await wait_until(listed_now, lambda listed, child=child: listed[child].get("exitCode") is not None, guard=30,
                                      normal="known within a second of the child's end", every=0.1)
            assert listed[child]["exitCode"] == 3, listed
            last = await tools.ok("wait")
            assert last["sessionId"] == parent and last["exitCode"] == 0, last
            assert "parent saw 3" in (await tools.ok("output", sessionId=parent))["text"]
            await tools.ok("stop", all=True)


async def test_stopping_a_childs_session_leaves_its_parent_current():
    """`stop {sessionId: <child>}` left no session current (NO_SESSION for the next call without sessionId);
    the program goes on in its parent, which is current again, as when a child ends by itself."""
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(FORKS), args=["subprocess"],
                              breakpoints=[at(FORKS, "child")])
        child, parent = stop["sessionId"], stop["parentId"]
        assert child != parent and parent == "s1", stop
        ended = await tools.ok("stop", sessionId=child)
        assert ended["sessionId"] == child and ended["state"] == "terminated", ended
        now = await tools.ok("context")  # no sessionId: the parent's
        assert now["sessionId"] == parent, now
        current = [s["sessionId"] for s in await sessions(tools) if s.get("current")]
        assert current == [parent], current
        await tools.ok("stop", all=True)


async def test_the_last_workers_end_with_the_parent_paused_at_a_breakpoint_returns_the_parents_stop():
    """The last pool worker ends as the parent, past the pool, reaches a breakpoint: the answer to the worker's
    `continue` was the worker's end with a hint that the parent is paused ("`continue` it"); it is the parent's
    stop, the worker's end a note in its hint. Where the parent has not stopped by the answer, the hint says it
    runs (and `wait` brings its stop)."""
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(WORKERS), args=["spawn"],
                              breakpoints=[at(WORKERS, "worker"), at(WORKERS, "total")])
        answers = []
        while stop["state"] == "paused" and stop["sessionId"] != "s1":
            stop = await tools.ok("continue")
            answers.append(stop)
            if stop["state"] == "terminated":
                assert "(paused)" not in stop.get("hint", ""), stop  # a paused parent's stop is the answer itself
                stop = await tools.ok("wait")
        assert stop["sessionId"] == "s1" and stop["reason"] == "breakpoint", stop
        assert stop["location"]["line"] == marker(WORKERS, "total") and locals_of(stop)["total"] == "14", stop
        await tools.ok("stop", all=True)


async def test_an_answer_with_another_sessions_stop_says_the_current_session_changed():
    """`continue` on the parent answered with a worker's stop and made the worker current without a word: the
    agent's next call without sessionId then acted on another process than it thought (issue 36 point 9)."""
    async with stdio_tools() as tools:
        entry = await tools.ok("debug", mode="source", path=str(WORKERS), args=["spawn"], stopOnEntry=True)
        assert entry["sessionId"] == "s1" and entry["reason"] == "entry", entry
        await tools.ok("breakpoint", **at(WORKERS, "worker"))
        stop = await tools.ok("continue")
        assert stop["state"] == "paused" and stop["sessionId"] != "s1" and stop["parentId"] == "s1", stop
        assert f"this is session {stop['sessionId']}'s stop, not s1's" in stop["hint"], stop
        assert f"{stop['sessionId']} is the current session now" in stop["hint"], stop
        await tools.ok("stop", all=True)
