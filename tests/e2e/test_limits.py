"""Every limit and option README.md documents, held by a test that fails when the limit is loosened or
the option ignored: which end of the output is kept, the error-message clip, the source resource's cap,
the `changes` cap, each hit-condition form under each adapter, a result no text format can write, where
builds go, INTERNAL, SIGHUP on stdio, the 50-thread cap. Through the real server over stdio and real
adapters."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from dap2mcp import processes

from conftest import PROGRAMS, Tools, connect, locals_of, marker, stdio_tools

OUTPUT_CHARS = 8000  # README: output in a result, the `output` tool's page, debugger://output
MESSAGE_CHARS = 8000  # README: an error message quotes what it was given, bounded like other output
SOURCE_BYTES = 4 * 1024 * 1024  # README: "Files over 4 MiB are refused"
CHANGES_SHOWN = 20  # README: `changes` lists "at most 20 of each"

OUTPUT = PROGRAMS / "limits_output.py"
LINES = 2000  # "before 00000\n" and the like: 13 characters a line, 26,000 in all


def numbered(word: str, first: int, last: int) -> str:
    return "".join(f"{word} {n:05d}\n" for n in range(first, last + 1))


async def test_output_keeps_its_last_8000_characters_in_results_and_the_resource_and_pages_from_the_first():
    """The end of the output is what explains a stop (the last lines before it, an evaluation's result, a
    graceful end's last words); the `output` tool reads the whole of it in pages, from its beginning."""
    async with stdio_tools() as tools:
        stopped = await tools.ok("debug", mode="source", path=str(OUTPUT), args=[str(LINES)],
                                 breakpoints=[{"file": str(OUTPUT), "line": marker(OUTPUT, "printed")}])
        out = stopped["output"]
        assert "incomplete" not in out, out  # flushed before the stop; else the test proves nothing
        assert out["truncated"] is True and out["text"] == numbered("before", 0, LINES - 1)[-OUTPUT_CHARS:], \
            (len(out["text"]), out["text"][:40])

        shouted = await tools.ok("evaluate", expression=f"shout({LINES})")
        assert shouted["value"] == str(LINES) and shouted["outputTruncated"] is True
        assert "outputIncomplete" not in shouted, shouted["output"][-40:]  # a flood still arriving is waited for
        assert shouted["output"] == numbered("shout", 0, LINES - 1)[-OUTPUT_CHARS:], shouted["output"][:40]

        everything = numbered("before", 0, LINES - 1) + numbered("shout", 0, LINES - 1)
        resource = await tools.read_json("debugger://output")
        assert resource["end"] == len(everything) and resource["offset"] == len(everything) - OUTPUT_CHARS
        assert resource["text"] == everything[-OUTPUT_CHARS:]

        first = await tools.ok("output")  # a page from offset 0, of `limit` (8000) characters
        assert (first["offset"], first["nextOffset"], first["end"]) == (0, OUTPUT_CHARS, len(everything))
        assert first["text"] == everything[:OUTPUT_CHARS]
        pages, offset = [], 0
        while offset < len(everything):
            page = await tools.ok("output", offset=offset, limit=5000)
            assert len(page["text"]) == min(5000, len(everything) - offset)
            pages.append(page["text"])
            offset = page["nextOffset"]
        assert "".join(pages) == everything

        ended = await tools.ok("stop", signal="SIGTERM")  # its handler prints LINES lines, then exits
        assert ended["exitCode"] == 0 and ended["outputTruncated"] is True, {k: ended[k] for k in ended if k != "output"}
        assert ended["output"] == numbered("bye", 0, LINES - 1)[-OUTPUT_CHARS:], ended["output"][-40:]


async def test_an_error_message_is_cut_at_8000_characters_and_says_how_much_it_left_out():
    """An evaluation's error quotes the exception's message whole: 20,012 characters came back."""
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(OUTPUT), args=["1"],
                       breakpoints=[{"file": str(OUTPUT), "line": marker(OUTPUT, "printed")}])
        message = await tools.error("evaluate", "ADAPTER_ERROR",
                                    expression="(_ for _ in ()).throw(ValueError('x' * 20000))")
        cut, _, said = message.rpartition("… (")
        assert len(cut) == MESSAGE_CHARS and cut.startswith("ValueError") and cut.endswith("x" * 100), message[:200]
        left_out = int(said.removesuffix(" more characters)"))
        assert left_out > 20000 - MESSAGE_CHARS and said == f"{left_out} more characters)", said
        assert (await tools.ok("evaluate", expression="1 + 1"))["value"] == "2"  # and the session goes on
        await tools.ok("stop")


async def test_the_source_resource_serves_up_to_4_mib_and_refuses_a_byte_more(tmp_path: Path):
    """Two files the adapter references (frames of both): the script exactly 4 MiB, served whole, and the
    module it calls one byte more, refused."""
    def padded(code: str, size: int) -> str:
        text = code + "#" * (size - len(code) - 1) + "\n"  # one long comment line: ASCII, so bytes are characters
        assert len(text.encode()) == size
        return text

    module = tmp_path / "limits_big_module.py"
    module.write_text(padded("def inside():\n    return 42  # marker: inside\n", SOURCE_BYTES + 1))
    script = tmp_path / "limits_big_script.py"
    script.write_text(padded("import limits_big_module\n\nprint(limits_big_module.inside())\n", SOURCE_BYTES))
    async with stdio_tools() as tools:
        stopped = await tools.ok("debug", mode="source", path=str(script), cwd=str(tmp_path),
                                 breakpoints=[{"file": str(module), "line": 2}])
        assert [f["function"] for f in stopped["frames"]][:2] == ["inside", "<module>"], stopped["frames"]
        served = (await tools.client.read_resource(f"debugger://source/{script}")).contents[0]
        assert served.text == script.read_text()
        with pytest.raises(MCPError) as caught:
            await tools.client.read_resource(f"debugger://source/{module}")
        error = caught.value.error
        assert error.data["code"] == "INVALID_ARGUMENT", error
        assert f"is {SOURCE_BYTES + 1} bytes" in error.message and f"up to {SOURCE_BYTES} bytes" in error.message
        await tools.ok("stop")


async def test_changes_list_at_most_20_of_each_kind_and_say_they_were_cut():
    """25 variables modified at one stop, 25 removed and 25 added at the next."""
    program = PROGRAMS / "limits_changes.py"
    async with stdio_tools() as tools:
        first = await tools.ok("debug", mode="source", path=str(program),
                               breakpoints=[{"file": str(program), "line": marker(program, name)}
                                            for name in ("set", "modified", "replaced")])
        assert len([name for name in locals_of(first) if name.startswith("v")]) == 25
        modified = await tools.ok("continue")
        changes = modified["changes"]
        assert changes["since"] == first["cycle"] and changes["truncated"] is True, changes
        assert len(changes["modified"]) == CHANGES_SHOWN and "added" not in changes and "removed" not in changes
        assert all(int(c["newValue"]) == int(c["oldValue"]) + 100 for c in changes["modified"]), changes["modified"]
        replaced = await tools.ok("continue")
        changes = replaced["changes"]
        assert changes["truncated"] is True and "modified" not in changes, changes
        assert len(changes["added"]) == len(changes["removed"]) == CHANGES_SHOWN, changes
        assert {c["name"][0] for c in changes["added"]} == {"w"} and {c["name"][0] for c in changes["removed"]} == {"v"}
        # the whole of it is in snapshot_diff
        whole = (await tools.ok("snapshot_diff", snapshot_id_1="@t-1", snapshot_id_2="@t0"))["diff"]
        assert len(whole["added"]) == len(whole["removed"]) == 25, whole["summary"]
        await tools.ok("stop")


# -- hit conditions: every form, under every adapter --------------------------------------------

HIT_FORMS = {  # the line's marker in the limits_hits programs: (hit condition, the passes it stops on, of 1..9)
    "plain": ("3", [3]),  # 'N' is '== N', as debugpy and cdt-gdb-adapter read it
    "equal": ("== 3", [3]),
    "at-least": (">= 7", [7, 8, 9]),
    "more-than": ("> 7", [8, 9]),
    "less-than": ("< 3", [1, 2]),
    "at-most": ("<= 2", [1, 2]),
    "every": ("% 4", [4, 8]),
}
HIT_ADAPTERS = {  # adapter: (program, the forms it takes; the others are refused with NOT_SUPPORTED)
    "debugpy": (PROGRAMS / "limits_hits.py", set(HIT_FORMS)),
    "lldb": (PROGRAMS / "limits_hits.c", {"at-least", "more-than"}),  # lldb-dap 19: a count of hits to pass over
    "gdb": (PROGRAMS / "limits_hits.c", {"plain", "equal", "at-least", "more-than"}),  # cdt-gdb-adapter 1.7: the same
    "delve": (PROGRAMS / "limits_hits_go" / "main.go", set(HIT_FORMS)),  # Delve 1.27 (1.20 had none of them)
}


@pytest.mark.parametrize("adapter", list(HIT_ADAPTERS))
async def test_each_hit_condition_form_stops_on_the_hits_it_names_or_is_refused(adapter: str):
    """lldb-dap 19 read only a bare N, and dropped every other form without a word (so the breakpoint stopped
    at every hit); cdt-gdb-adapter 1.7 never set a breakpoint whose hit condition it could not read."""
    program, taken = HIT_ADAPTERS[adapter]
    lines = {marker(program, form): form for form in HIT_FORMS}
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), stopOnEntry=True,
                       **({} if adapter == "debugpy" else {"adapter": adapter}))
        for line, form in lines.items():
            condition, _ = HIT_FORMS[form]
            if form in taken:
                placed = await tools.ok("breakpoint", file=str(program), line=line, hitCondition=condition)
                assert placed["verified"] and placed["hitCondition"] == condition, placed
            else:
                message = await tools.error("breakpoint", "NOT_SUPPORTED", file=str(program), line=line,
                                            hitCondition=condition)
                assert repr(condition) in message
        stops: dict[str, list[int]] = {form: [] for form in HIT_FORMS}
        for _ in range(40):  # at most 19 stops are due
            ctx = await tools.ok("continue")
            if ctx["state"] != "paused":
                break
            stops[lines[ctx["location"]["line"]]].append(int((await tools.ok("evaluate", expression="i"))["value"]))
        assert ctx["state"] == "terminated", ctx
        assert stops == {form: passes if form in taken else [] for form, (_, passes) in HIT_FORMS.items()}


async def test_a_function_breakpoints_condition_is_refused_where_the_adapter_would_drop_it():
    """cdt-gdb-adapter 1.7 sets a function breakpoint without its condition or hit condition: it stopped at
    every call. lldb-dap keeps both."""
    program = PROGRAMS / "calls.c"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), adapter="gdb", stopOnEntry=True)
        for option in ({"condition": "1 == 2"}, {"hitCondition": "2"}):
            message = await tools.error("breakpoint", "NOT_SUPPORTED", function="main", **option)
            assert "function breakpoint" in message and "line" in message, message
        await tools.ok("stop")


async def test_a_result_holding_text_no_encoding_takes_comes_whole():
    """psutil reads a command line that is not UTF-8 with surrogate escapes, and the `debug` result names
    the program's child by it: neither TOON nor the wire's JSON can write a lone surrogate, and the answer
    was a JSON-RPC error instead of the stop."""
    program = PROGRAMS / "limits_child.py"
    async with stdio_tools() as tools:  # Tools checks that the text decodes to the structured content
        stopped = await tools.ok("debug", mode="source", path=str(program), childProcesses=False,
                                 breakpoints=[{"file": str(program), "line": marker(program, "started")}])
        assert stopped["state"] == "paused" and "caf\ufffd.txt" in stopped["hint"], stopped.get("hint")
        await tools.ok("stop")
        # debugged as a session of its own, the child is listed by that command line
        await tools.ok("debug", mode="source", path=str(program),
                       breakpoints=[{"file": str(program), "line": marker(program, "started")}])
        for _ in range(50):
            listed = (await tools.ok("info", type="sessions"))["items"]
            if len(listed) == 2:
                break
            await asyncio.sleep(0.1)
        assert "caf\ufffd.txt" in listed[1]["program"], listed
        await tools.ok("stop", all=True)


# -- where builds go ------------------------------------------------------------------------------

BUILT = {  # language: (the program's file or package directory, the adapter)
    "c": ("ledger.c", "lldb"),
    "c++": ("ledger.cpp", "lldb"),
    "rust": ("ledger.rs", "lldb"),
    "go": ("ledger_go", "delve"),
}


@pytest.mark.parametrize("language", list(BUILT))
async def test_a_source_build_goes_to_the_cache_and_never_beside_the_sources(language: str, tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch):
    name, adapter = BUILT[language]
    sources, cache = tmp_path / "project", tmp_path / "cache"
    if (PROGRAMS / name).is_dir():
        shutil.copytree(PROGRAMS / name, sources)
        path = sources
    else:
        sources.mkdir()
        path = Path(shutil.copy(PROGRAMS / name, sources))
    before = sorted(p.name for p in sources.iterdir())
    monkeypatch.setenv("DAP2MCP_CACHE", str(cache))  # the server's environment
    async with stdio_tools() as tools:
        stopped = await tools.ok("debug", mode="source", path=str(path), adapter=adapter, stopOnEntry=True,
                                 cwd=str(sources), timeout=120)
        assert stopped["state"] == "paused", stopped
        built = [p for p in (cache / "build").rglob("*") if p.is_file() and os.access(p, os.X_OK)]
        assert [p.name for p in built] == [path.stem], built
        await tools.ok("stop")
    assert sorted(p.name for p in sources.iterdir()) == before


# -- INTERNAL -------------------------------------------------------------------------------------

FAULTY_SERVER = """
import sys
from dap2mcp.session.handle import SessionHandle

real = SessionHandle.evaluate

async def evaluate(self, expression, *args, **kwargs):
    if expression == "inject_fault()":
        raise ZeroDivisionError("a fault the test injected")
    return await real(self, expression, *args, **kwargs)

SessionHandle.evaluate = evaluate
from dap2mcp.cli import main
sys.exit(main(["serve"]))
"""


async def test_an_unexpected_exception_in_a_tool_is_internal_without_a_traceback_and_the_server_goes_on():
    """A fault injected into the server's own process (no real input provokes one: each found was a bug,
    since fixed): the session's `evaluate` raises an exception no code of dap2mcp expects."""
    params = StdioServerParameters(command=sys.executable, args=["-c", FAULTY_SERVER], env=dict(os.environ))
    async with connect("stdio", "auto", params=params) as client:
        tools = Tools(client)
        await tools.ok("debug", mode="source", path=str(OUTPUT), args=["1"],
                       breakpoints=[{"file": str(OUTPUT), "line": marker(OUTPUT, "printed")}])
        message = await tools.error("evaluate", "INTERNAL", expression="inject_fault()")
        assert message == "internal error in 'evaluate': ZeroDivisionError: a fault the test injected", message
        assert (await tools.ok("evaluate", expression="1 + 1"))["value"] == "2"
        assert (await tools.ok("context"))["state"] == "paused"
        await tools.ok("stop")


# -- SIGHUP on stdio ------------------------------------------------------------------------------

def _request(request_id: int, tool: str, **arguments: Any) -> bytes:
    message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    return json.dumps(message).encode() + b"\n"


@pytest.mark.parametrize("program", ["ticker.c", "spin.py"])
def test_sighup_ends_the_stdio_server_cleanly_with_its_adapter_and_program(program: str):
    """README: SIGTERM, SIGINT or SIGHUP stop the server at once, ending the debug session and every process
    it started. Left to Python's default, SIGHUP killed the server (exit -1) before the adapter could
    end the program; a traced native program would then be ended only by the orphan guard."""
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
    server = subprocess.Popen([sys.executable, "-m", "dap2mcp", "serve"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(json.dumps(hello).encode() + b"\n"
                           + b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n'
                           + _request(2, "debug", mode="source", path=str(PROGRAMS / program), timeout=1))
        server.stdin.flush()
        answers = {}
        while 2 not in answers:  # the debug answer: the program runs (it never stops), under its adapter
            answer = json.loads(server.stdout.readline())
            answers[answer.get("id")] = answer
        assert answers[2]["result"]["structuredContent"]["state"] == "running", answers[2]
        family = psutil.Process(server.pid).children(recursive=True)
        assert len(family) >= 2, family  # the adapter and the program at least
        server.send_signal(signal.SIGHUP)
        assert server.wait(timeout=60) == 0  # a hang guard, far above the second it takes
    finally:
        server.kill()
    deadline = time.monotonic() + 30  # a hang guard: what the server ran ends within a second of it
    while (alive := [p for p in family if processes._running(p)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive, f"left behind: {alive}"


# -- the thread cap -------------------------------------------------------------------------------

THREADS_LISTED = 50  # README: a context lists at most 50 threads, `threadsNext` pages on; so does debugger://threads


async def test_61_python_threads_are_listed_50_at_a_time_in_context_and_the_resource():
    """As tests/e2e/test_native_set_and_step.py does for 81 threads under lldb: a thread pool's sixty
    workers and the main thread, under debugpy."""
    program = PROGRAMS / "limits_threads.py"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program),
                       breakpoints=[{"file": str(program), "line": marker(program, "crowded")}])
        first = await tools.ok("context")
        assert first["threadsTotal"] == 61 and len(first["threads"]) == THREADS_LISTED, first["threadsTotal"]
        assert first["threadsNext"] == THREADS_LISTED
        rest = await tools.ok("context", threadsOffset=first["threadsNext"])
        assert len(rest["threads"]) == 11 and "threadsNext" not in rest and rest["threadsTotal"] == 61
        assert len({t["id"] for t in first["threads"] + rest["threads"]}) == 61
        listed = await tools.read_json("debugger://threads")
        assert len(listed["threads"]) == THREADS_LISTED and listed["threadsTotal"] == 61 and listed["truncated"] is True
        await tools.ok("stop")
