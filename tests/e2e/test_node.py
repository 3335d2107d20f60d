"""Node.js and TypeScript through Microsoft's js-debug (the `node` profile), over MCP stdio, with the real js-debug
installed by `dap2mcp install node` (scripts/install.sh runs it; missing, these fail) and real Node programs.

js-debug's first connection only launches: the program is its first child session (s2, parentId s1), where
every stop is. TypeScript needs Node 22.6 or later first on PATH: tests/npm's Node 22 is put there for it.
"""

from __future__ import annotations

import os

import psutil
import pytest

from conftest import PROGRAMS, ROOT, Tools, locals_of, marker, stdio_tools

LEDGER_JS = PROGRAMS / "ledger.js"
LEDGER_TS = PROGRAMS / "ledger.ts"
NODE_22 = ROOT / "tests" / "npm" / "node_modules" / ".bin"


def at(path, name: str) -> dict[str, object]:
    return {"file": str(path), "line": marker(path, name)}


def values(ctx: dict[str, object]) -> dict[tuple[str, str], str]:
    """Every listed variable's value, by scope and name."""
    return {(s["name"], v["name"]): v["value"] for s in ctx["scopes"] for v in s.get("variables", [])}


async def sessions(tools: Tools) -> dict[str, dict[str, object]]:
    return {s["sessionId"]: s for s in (await tools.ok("info", type="sessions"))["items"]}


def everything_below_the_server() -> list[psutil.Process]:
    """What the test's dap2mcp server started and is still running: js-debug, the program, its watchdog."""
    found = []
    for server in psutil.Process().children():
        try:
            found += [p for p in server.children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE]
        except psutil.Error:
            continue
    return found


@pytest.fixture
def node_22_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server (and the node it finds on PATH) with Node 22, which runs TypeScript, first on PATH."""
    assert (NODE_22 / "node").exists(), f"{NODE_22 / 'node'} is missing: run scripts/install.sh"
    monkeypatch.setenv("PATH", f"{NODE_22}{os.pathsep}{os.environ['PATH']}")


async def test_a_javascript_program_breakpoint_locals_step_evaluate_set_output_and_exit_code():
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(LEDGER_JS), breakpoints=[at(LEDGER_JS, "post")])
        # the stop is the program's session, the launcher's child; thread 0 is js-debug's one thread
        assert stop["state"] == "paused" and stop["sessionId"] == "s2" and stop["parentId"] == "s1", stop
        assert stop["reason"] == "breakpoint" and stop["breakpointIds"] == [1] and stop["threadId"] == 0
        assert stop["location"]["line"] == marker(LEDGER_JS, "post") and stop["location"]["function"] == "post"
        # the stack ends at the module's top level: Node's own loader below it is cut, names read as written
        assert [f["function"] for f in stop["frames"]] == ["post", "main", "<anonymous>"], stop["frames"]
        assert all(f["file"].endswith("ledger.js") for f in stop["frames"])
        here = locals_of(stop)
        assert here["before"] == "100" and here["account"].startswith("{owner: 'Ada', balance: 100"), here

        listed = await sessions(tools)
        assert listed["s1"]["state"] == "running" and listed["s2"]["state"] == "paused" and listed["s2"]["current"]
        assert listed["s2"]["program"] == str(LEDGER_JS) and "ledger.js" in " ".join(psutil.Process(listed["s2"]["pid"]).cmdline())

        step = await tools.ok("step", mode="over")
        assert step["location"]["line"] == marker(LEDGER_JS, "post") + 1 and step["threadId"] == 0, step
        assert locals_of(step)["account"].startswith("{owner: 'Ada', balance: 347.5")
        assert (await tools.ok("evaluate", expression="account.balance - before"))["value"] == "247.5"
        ahead = (await tools.ok("snapshot_create", depth=0, label="before the change"))["snapshot"]["id"]
        changed = await tools.ok("set-variable", name="before", value="41")
        assert changed["value"] == "41" and (await tools.ok("evaluate", expression="before"))["value"] == "41"
        # js-debug lists V8's copies of the scopes taken at the stop, which the assignment leaves as they were:
        # the context and a snapshot at the same stop show what the program now holds, not the copy
        looked = await tools.ok("context")
        assert looked["sessionId"] == "s2" and looked["location"] == step["location"]
        assert locals_of(looked)["before"] == "41", looked
        assert {k: v for k, v in values(looked).items() if k[1] != "before"} == \
            {k: v for k, v in values(step).items() if k[1] != "before"}  # the rest read as listed (functions too)
        after = (await tools.ok("snapshot_create", depth=0, label="after the change"))["snapshot"]["id"]
        modified = (await tools.ok("snapshot_diff", snapshot_id_1=ahead, snapshot_id_2=after))["diff"]["modified"]
        assert [(m["name"], m["oldValue"], m["newValue"]) for m in modified] == [("before", "100", "41")], modified

        second = await tools.ok("continue")
        assert second["sessionId"] == "s2" and second["location"]["line"] == marker(LEDGER_JS, "post")
        # what the program printed before the stop, once (js-debug also reports console calls as events)
        assert second["output"]["text"] == "posted salary: 306.50\n", second  # 347.5 - 41: the change took effect

        await tools.ok("clear-breakpoints", all=True)
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and end["sessionId"] == "s2" and end["exitCode"] == 0, end
        assert "balance 224.24 after 3 entries" in end["output"]["text"] and "Debugger attached" not in end["output"]["text"]
        whole = (await tools.ok("output", sessionId="s2"))["text"]
        assert whole.count("posted rent") == 1 and whole.startswith("posted salary"), whole
        await tools.ok("stop", all=True)


async def test_an_uncaught_throw_stops_with_its_message_and_the_program_exits_with_1():
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(LEDGER_JS), args=["throw"],
                              breakpoints=[{"exception": "uncaught"}])
        assert stop["reason"] == "exception" and stop["sessionId"] == "s2", stop
        assert stop["location"]["line"] == marker(LEDGER_JS, "throw") and stop["location"]["function"] == "main"
        assert stop["exception"]["exceptionId"].startswith("RangeError: balance 224.2"), stop["exception"]
        end = await tools.ok("continue")
        assert end["state"] == "terminated" and end["exitCode"] == 1, end
        assert "RangeError: balance 224.2" in end["output"]["text"]
        await tools.ok("stop", all=True)


async def test_a_typescript_program_binds_breakpoints_in_the_ts_file_and_shows_locals(node_22_first):
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(LEDGER_TS), breakpoints=[at(LEDGER_TS, "post")])
        assert stop["state"] == "paused" and stop["sessionId"] == "s2", stop
        assert stop["location"]["file"].endswith("ledger.ts") and stop["location"]["line"] == marker(LEDGER_TS, "post")
        assert stop["location"]["function"] == "Account.post"
        scope = next(s for s in stop["scopes"] if s["name"].startswith("Local: "))
        types = {v["name"]: (v["value"], v.get("type")) for v in scope["variables"]}
        assert types["before"] == ("100", "number") and types["this"][1] == "Account", types
        assert types["entry"][0] == "{memo: 'salary', amount: 250}"
        await tools.ok("clear-breakpoints", all=True)
        end = await tools.ok("continue")
        assert end["exitCode"] == 0 and "balance 230 after 2 entries" in end["output"]["text"], end
        assert "ExperimentalWarning" not in end["output"]["text"]
        await tools.ok("stop", all=True)


async def test_typescript_with_an_older_node_first_on_path_says_which_and_what_to_do(monkeypatch):
    old = [d for d in os.environ["PATH"].split(os.pathsep) if os.path.isfile(os.path.join(d, "node"))
           and not d.startswith(str(ROOT))]
    monkeypatch.setenv("PATH", os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep) if not d.startswith(str(ROOT))))
    assert old, "a node older than 22.6 on PATH (Debian's) is what this test is about"
    async with stdio_tools() as tools:
        said = await tools.error("debug", "NOT_SUPPORTED", mode="source", path=str(LEDGER_TS))
        assert "TypeScript needs Node 22.6 or later" in said and "is v20." in said and "first on PATH" in said, said
        assert (await sessions(tools)) == {}


async def test_stop_of_the_programs_session_ends_the_program_js_debug_and_the_launcher_leaving_no_process():
    async with stdio_tools() as tools:
        for stopped in ("s2", "s3"):  # the program's session, then the launcher's
            stop = await tools.ok("debug", mode="source", path=str(LEDGER_JS), breakpoints=[at(LEDGER_JS, "loop")])
            program, launcher = stop["sessionId"], stop["parentId"]
            running = everything_below_the_server()
            commands = [" ".join(p.cmdline()) for p in running]
            assert any("vsDebugServer.js" in c for c in commands) and any("watchdog.js" in c for c in commands), commands
            assert psutil.pid_exists((await sessions(tools))[program]["pid"])
            answer = await tools.ok("stop", sessionId=program if stopped == "s2" else launcher)
            assert answer["state"] == "terminated" and answer.get("exitCode") is None, answer  # ended by `stop`
            assert await sessions(tools) == {}
            gone, alive = psutil.wait_procs(running, timeout=10)  # a hang guard, far above the ~0.3 s it takes
            assert not alive, [p.cmdline() for p in alive]
            assert everything_below_the_server() == []


async def test_restart_from_the_programs_session_runs_the_program_again_under_the_same_launcher():
    async with stdio_tools() as tools:
        first = await tools.ok("debug", mode="source", path=str(LEDGER_JS), breakpoints=[at(LEDGER_JS, "loop")])
        old_pid = (await sessions(tools))["s2"]["pid"]
        again = await tools.ok("restart")  # the current session is the program's (s2): its launcher is restarted
        # the program's new session keeps the handle s2 the agent holds (issue 35 point 10: it was s3, s2 gone)
        assert again["state"] == "paused" and again["parentId"] == "s1" and again["sessionId"] == "s2", again
        assert again["location"] == first["location"] and locals_of(again)["total"] == "0"
        listed = await sessions(tools)
        assert set(listed) == {"s1", "s2"} and listed["s2"]["pid"] != old_pid
        assert not psutil.pid_exists(old_pid) or psutil.Process(old_pid).status() == psutil.STATUS_ZOMBIE
        await tools.ok("stop", all=True)
