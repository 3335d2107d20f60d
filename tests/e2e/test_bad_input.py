"""Every kind of bad input gets a clear code, never a traceback or a hang, and the session survives."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import INVOICE, PROGRAMS, Tools, connect, marker, server_params, stdio_tools

LOOP = marker(INVOICE, "loop")


async def test_without_a_session_every_tool_says_no_session():
    async with stdio_tools() as tools:
        for tool, args in [("stop", {}), ("restart", {}), ("breakpoint", {"function": "f"}),
                           ("clear-breakpoints", {"all": True}), ("continue", {}), ("step", {"mode": "over"}),
                           ("pause", {}), ("context", {}), ("evaluate", {"expression": "1"}),
                           ("set-variable", {"name": "x", "value": "1"}), ("info", {"type": "modules"}),
                           ("disassemble", {"memoryReference": "0x0"})]:
            message = await tools.error(tool, "NO_SESSION", **args)
            assert "debug" in message


async def test_missing_and_wrong_typed_arguments():
    async with stdio_tools() as tools:
        assert "mode" in await tools.error("debug", "INVALID_ARGUMENT")
        assert "mode" in await tools.error("debug", "INVALID_ARGUMENT", mode="sideways", path=str(INVOICE))
        await tools.error("debug", "INVALID_ARGUMENT", mode="source")  # no path
        await tools.error("debug", "INVALID_ARGUMENT", mode="attach")  # no processId
        await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(INVOICE), args="not-a-list")
        await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(INVOICE),
                          breakpoints=[{"line": 3}])  # a line without a file
        await tools.error("debug", "INVALID_ARGUMENT", mode="attach", processId=2**22 + 12345)
        await tools.error("debug", "FILE_NOT_FOUND", mode="source", path="/nonexistent/prog.py")
        await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(INVOICE), adapter="nope")
        assert "extension" in await tools.error("debug", "ADAPTER_NOT_FOUND", mode="source",
                                                path=str(INVOICE.parent.parent / "README.md"))
        await tools.error("step", "INVALID_ARGUMENT", mode="sideways")
        await tools.error("step", "INVALID_ARGUMENT")
        await tools.error("evaluate", "INVALID_ARGUMENT", expression=42)
        # what is wrong with the call is said before that no session runs: fixing the session would not fix it
        assert "give file, ids or all" in await tools.error("clear-breakpoints", "INVALID_ARGUMENT")
        assert "memoryReference or expression" in await tools.error("memory", "INVALID_ARGUMENT")
        await tools.error("context", "INVALID_ARGUMENT", maxFrames="many")
        await tools.error("nonexistent-tool", "INVALID_ARGUMENT")
        # and the server still works
        ctx = await tools.ok("debug", mode="source", path=str(INVOICE), breakpoints=[{"file": str(INVOICE), "line": LOOP}])
        assert ctx["state"] == "paused"
        await tools.ok("stop")


async def test_bad_input_during_a_session_leaves_it_usable():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(INVOICE), breakpoints=[{"file": str(INVOICE), "line": LOOP}])
        await tools.error("breakpoint", "FILE_NOT_FOUND", file="/nonexistent.py", line=1)
        assert "past the end" in await tools.error("breakpoint", "INVALID_ARGUMENT", file=str(INVOICE), line=10_000)
        await tools.error("breakpoint", "INVALID_ARGUMENT", file=str(INVOICE), line=0)
        await tools.error("breakpoint", "INVALID_ARGUMENT")
        await tools.error("breakpoint", "INVALID_ARGUMENT", file=str(INVOICE), line=3, function="main")
        await tools.error("clear-breakpoints", "INVALID_ARGUMENT")
        assert "999" in await tools.error("clear-breakpoints", "BREAKPOINT_NOT_FOUND", ids=[999])
        await tools.error("context", "INVALID_ARGUMENT", frameId=987654)
        await tools.error("context", "INVALID_ARGUMENT", threadId=987654)
        for wrong in (0, 987654):  # debugpy's server dies of a step in a thread it does not know
            assert "unknown threadId" in await tools.error("step", "INVALID_ARGUMENT", mode="over", threadId=wrong)
            await tools.error("snapshot_create", "INVALID_ARGUMENT", thread_id=wrong)
        await tools.error("evaluate", "ADAPTER_ERROR", expression="undefined_name + 1")
        await tools.error("evaluate", "ADAPTER_ERROR", expression="1 +")
        await tools.error("set-variable", "INVALID_ARGUMENT", name="no_such_variable", value="1")
        await tools.error("set-variable", "ADAPTER_ERROR", name="total", value="1 +")
        assert "disassembl" in await tools.error("disassemble", "NOT_SUPPORTED", memoryReference="0x1000")
        await tools.error("info", "NOT_SUPPORTED", type="sources")
        await tools.error("info", "INVALID_ARGUMENT", type="everything")
        await tools.error("continue", "FILE_NOT_FOUND", to={"file": "/nope.py", "line": 1})
        # the session is intact: the breakpoint still holds, stepping still works
        ctx = await tools.ok("context")
        assert ctx["state"] == "paused" and ctx["location"]["line"] == LOOP
        modules = await tools.ok("info", type="modules")
        assert modules["total"] > 0 and any(m["name"] == "__main__" for m in modules["items"])
        assert (await tools.ok("step", mode="over"))["location"]["line"] == LOOP + 1
        assert (await tools.ok("continue"))["location"]["line"] == LOOP
        await tools.ok("stop")


async def test_a_frame_id_of_an_earlier_stop_is_refused_by_every_tool_that_takes_one():
    """debugpy would still answer `scopes` for the frame that returned, and then fail on its variables."""
    calls = PROGRAMS / "calls.py"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(calls),
                             breakpoints=[{"file": str(calls), "line": marker(calls, "leaf")}])
        gone = ctx["frames"][0]["id"]
        assert (await tools.ok("step", mode="out"))["location"]["function"] == "middle"
        for tool, args in [("context", {}), ("evaluate", {"expression": "1"}),
                           ("set-variable", {"name": "a", "value": "1"})]:
            assert f"unknown frameId {gone}" in await tools.error(tool, "INVALID_ARGUMENT", frameId=gone, **args)
        assert (await tools.ok("context"))["location"]["function"] == "middle"
        await tools.ok("stop")


async def test_a_misspelled_argument_is_refused_not_ignored():
    """Ignored, `too` would make `continue` run the program to its end, and `conditon` would make an
    unconditional breakpoint."""
    async with stdio_tools() as tools:
        listed = await tools.client.list_tools()
        assert all(tool.input_schema.get("additionalProperties") is False for tool in listed.tools)
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(INVOICE),
                                    brakpoints=[{"file": str(INVOICE), "line": LOOP}])
        assert "'brakpoints' (did you mean 'breakpoints'?)" in message
        assert "breakpoints.0.conditon: unknown key" in await tools.error(
            "debug", "INVALID_ARGUMENT", mode="source", path=str(INVOICE),
            breakpoints=[{"file": str(INVOICE), "line": LOOP, "conditon": "True"}])
        await tools.ok("debug", mode="source", path=str(INVOICE), breakpoints=[{"file": str(INVOICE), "line": LOOP}])
        assert "'too' (did you mean 'to'?)" in await tools.error("continue", "INVALID_ARGUMENT",
                                                                 too={"file": str(INVOICE), "line": LOOP + 1})
        await tools.error("continue", "INVALID_ARGUMENT", to={"file": str(INVOICE), "line": LOOP + 1, "col": 1})
        assert "'conditon' (did you mean 'condition'?)" in await tools.error(
            "breakpoint", "INVALID_ARGUMENT", file=str(INVOICE), line=LOOP + 1, conditon="False")
        assert "it takes signal, timeout" in await tools.error("stop", "INVALID_ARGUMENT", now=True)
        # nothing happened: still paused where it was, and no breakpoint was added
        ctx = await tools.ok("context")
        assert ctx["state"] == "paused" and ctx["location"]["line"] == LOOP
        assert [bp["line"] for bp in (await tools.read_json("debugger://breakpoints"))["breakpoints"]] == [LOOP]
        await tools.ok("stop")


async def test_huge_arguments_are_refused_or_clipped_never_echoed_whole():
    """The SDK's HTTP client drops any event over 1 MiB, and an answer carries its text twice: echoing
    a 600 KB argument would lose the answer and leave the client unsure what happened."""
    huge = "a" * 600_000
    async with stdio_tools() as tools:
        for tool, arguments in [("debug", {"mode": "source", "path": f"/tmp/{huge}.py"}),
                                ("debug", {"mode": "source", "path": str(INVOICE), "cwd": huge}),
                                ("breakpoint", {"file": f"/nope/{huge}.py", "line": 3}),
                                ("breakpoint", {"function": huge})]:
            message = await tools.error(tool, "INVALID_ARGUMENT", **arguments)
            assert "at most" in message and len(message) < 1000, message[:300]
        await tools.ok("debug", mode="source", path=str(INVOICE), breakpoints=[{"file": str(INVOICE), "line": LOOP}])
        await tools.error("breakpoint", "INVALID_ARGUMENT", file=str(INVOICE), line=LOOP + 1, logMessage=huge)
        await tools.error("breakpoint", "INVALID_ARGUMENT", exception="raised", exceptionTypes=[huge])
        await tools.error("set-variable", "INVALID_ARGUMENT", name=f"d[{'0' * 600_000}]", value="5")
        await tools.error("continue", "INVALID_ARGUMENT", to={"file": huge, "line": 3})
        for tool, arguments in [("evaluate", {"expression": "1 +" + " " * 600_000 + huge}),
                                ("set-variable", {"name": huge, "value": "1"})]:
            result = await tools.client.call_tool(tool, arguments)
            assert result.is_error and len(result.content[0].text) < 20_000, (tool, len(result.content[0].text))
        # nothing was half done: one breakpoint, still paused where it was
        assert len((await tools.read_json("debugger://breakpoints"))["breakpoints"]) == 1
        assert (await tools.ok("context"))["location"]["line"] == LOOP
        await tools.ok("stop")


async def test_running_program_refuses_paused_only_tools():
    spin = PROGRAMS / "spin.py"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(spin), timeout=0.5)
        assert ctx["state"] == "running" and "pause" in ctx["hint"]
        assert "pause" in await tools.error("step", "NOT_PAUSED", mode="over")
        await tools.error("evaluate", "NOT_PAUSED", expression="1")
        await tools.error("set-variable", "NOT_PAUSED", name="count", value="0")
        assert (await tools.ok("context"))["state"] == "running"
        for wrong in (0, 987654):  # debugpy would pause nothing and print its own traceback as the program's output
            assert "unknown threadId" in await tools.error("pause", "INVALID_ARGUMENT", threadId=wrong, timeout=2)
        for _ in range(20):  # a slow machine may still be starting the program (its `<module>`, no line yet)
            ctx = await tools.ok("pause")
            assert ctx["state"] == "paused" and ctx["reason"] == "pause"
            if any(f["function"] in ("tick", "main") for f in ctx["frames"]):
                break
            assert (await tools.ok("continue", timeout=0.2))["state"] == "running"
        assert any(f["function"] in ("tick", "main") for f in ctx["frames"]), ctx
        assert "Traceback" not in (ctx.get("output") or {}).get("text", "")
        await tools.ok("stop")


async def test_a_server_in_a_directory_whose_name_is_not_utf8_says_so_and_debugs_with_cwd(tmp_path: Path):
    """DAP carries only UTF-8: the launch of a server started in such a directory (the default cwd) failed
    with INTERNAL."""
    odd = os.path.join(os.fsencode(tmp_path), b"caf\xe9")
    os.mkdir(odd)
    params = server_params()
    params.cwd = os.fsdecode(odd)
    async with connect("stdio", "auto", params=params) as client:
        tools = Tools(client)
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(INVOICE))
        assert "working directory is not valid UTF-8" in message and "caf\\udce9" in message and "`cwd`" in message
        started = await tools.ok("debug", mode="source", path=str(INVOICE), cwd=str(tmp_path), stopOnEntry=True)
        assert started["state"] == "paused", started
        await tools.ok("stop")



async def test_a_refused_assignment_names_the_exception_it_raised():
    """debugpy says only "Error executing: point.x = (5)"; the first answer names what the assignment raised
    (issue 34: it said to `evaluate` the assignment to see it). A value that calls something is not computed a
    second time for that."""
    program = PROGRAMS / "frozen.py"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program),
                       breakpoints=[{"file": str(program), "line": marker(program, "print")}])
        message = await tools.error("set-variable", "ADAPTER_ERROR", name="point.x", value="5")
        assert "FrozenInstanceError: cannot assign to field 'x'" in message, message
        message = await tools.error("set-variable", "ADAPTER_ERROR", name="pair[0]", value="7")
        assert "TypeError: 'tuple' object does not support item assignment" in message, message
        message = await tools.error("set-variable", "ADAPTER_ERROR", name="point.x", value="int('5')")
        assert "`evaluate` the assignment" in message, message  # its call would run again: not done
        assert (await tools.ok("evaluate", expression="point.x"))["value"] == "1"
        await tools.ok("stop")


async def test_an_error_about_a_session_names_it_beside_the_error():
    """Every answer names its session, errors included: with two sessions, an agent must not have to guess
    which one refused (issue 36 point 9)."""
    async with stdio_tools() as tools:
        before = await tools("context")
        assert before["error"]["code"] == "NO_SESSION" and "sessionId" not in before, before
        first = await tools.ok("debug", mode="source", path=str(INVOICE), stopOnEntry=True)
        second = await tools.ok("debug", mode="source", path=str(INVOICE), stopOnEntry=True)
        refused = await tools("evaluate", expression="1 +")
        assert not refused["success"] and refused["sessionId"] == second["sessionId"], refused  # the current one
        named = await tools("evaluate", expression="1 +", sessionId=first["sessionId"])
        assert not named["success"] and named["sessionId"] == first["sessionId"], named
        unknown = await tools("evaluate", expression="1", sessionId="s99")
        assert not unknown["success"] and "sessionId" not in unknown, unknown  # no such session to name
        await tools.ok("stop", all=True)
