"""Marks taken out of the program's output however the adapter splits them, and only marks: text that merely
looks like one's beginning is the program's and is kept, and held back only while a mark is on its way."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psutil

from dap2mcp import processes
from dap2mcp.adapters import PROFILES, Target
from dap2mcp.session.output.marks import PREFIX, Marks
from dap2mcp.session.session import DebugSession

from conftest import wait_until_sync


async def test_a_mark_is_back_once_its_text_came_and_is_never_shown() -> None:
    marks = Marks()
    mark = marks.new((1, 2))
    one, two = mark.template % 1, mark.template % 2
    assert marks.take_out("stdout", f"line 1\n{one}line 2\n") == ("line 1\nline 2\n", True)
    assert mark.back[1].done() and not mark.back[2].done()
    assert marks.take_out("stdout", two) == ("", True)  # fd 2's mark on stdout: dap2mcp merges the two
    assert mark.back[2].done()


async def test_a_mark_split_across_texts_is_held_until_its_end_comes() -> None:
    marks = Marks()
    mark = marks.new((1,))
    text = mark.template % 1
    pieces = ["flood ends", text[:3], text[3:9], text[9:] + "after"]
    shown = [marks.take_out("stdout", piece) for piece in pieces]
    assert shown == [("flood ends", False), ("", False), ("", False), ("after", True)] and mark.back[1].done()


async def test_the_programs_own_nul_bytes_and_look_alikes_stay() -> None:
    marks = Marks()
    mark = marks.new((1,))
    assert marks.take_out("stdout", "a\x00b\x00c") == ("a\x00b\x00c", False)
    unended = PREFIX + "x" * 40
    assert marks.take_out("stdout", unended + "\n") == (unended + "\n", False)  # too long to be a mark
    assert marks.take_out("stderr", PREFIX[:4]) == ("", False)  # may be a mark's beginning: held back
    assert marks.take_out("stderr", "no mark\n") == (PREFIX[:4] + "no mark\n", False)  # given back: it was not
    assert not mark.back[1].done()


async def test_nothing_is_held_back_when_no_mark_is_on_its_way() -> None:
    """A program whose output ends in NUL kept that NUL back for good, in sessions where no mark is ever written."""
    marks = Marks()
    assert marks.take_out("stdout", "record-1\x00record-2\x00") == ("record-1\x00record-2\x00", False)
    mark = marks.new((1, 2))
    marks.not_written(mark, [1, 2])  # the program's output was not the adapter's pipe: nothing to wait for
    assert marks.take_out("stdout", "end\x00") == ("end\x00", False)


async def test_a_mark_forgotten_after_its_wait_is_still_taken_out() -> None:
    marks = Marks()
    mark = marks.new((1,))
    marks.forget(mark)
    text = mark.template % 1
    assert marks.take_out("stdout", "x" + text[:5]) == ("x", False)  # still on its way: its beginning held
    assert marks.take_out("stdout", text[5:] + "y") == ("y", True)
    assert not mark.back[1].done()
    assert marks.take_out("stdout", "z\x00") == ("z\x00", False)  # back: nothing on its way any more


# Starts a child that writes nothing, once told to on stdin; the program itself writes nothing after `ready`.
STARTS_A_CHILD = ("import subprocess, sys, time\nprint('ready', flush=True)\nsys.stdin.readline()\n"
                  "child = subprocess.Popen(['sleep', '30'])\ntime.sleep(30)\n")


async def test_a_program_with_a_child_process_is_never_taken_to_have_written_nothing(tmp_path: Path) -> None:
    """docs/adapters.md: a stop skips the output mark only where the program wrote nothing since the last one, nothing waits
    in its pipes, and it has no child process (whose writes its count of bytes leaves out, and which may be on
    their way, past the pipe). Here the count is the same and the pipe empty, so the child alone decides: an
    end-to-end case reaches the pipe check first (a frozen launcher leaves the child's text in the pipe)."""
    program = subprocess.Popen([sys.executable, "-c", STARTS_A_CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert program.stdin is not None and program.stdout is not None
        assert program.stdout.readline() == b"ready\n"
        session = DebugSession(Target(mode="source", path=str(tmp_path / "p.py"), cwd=str(tmp_path)), PROFILES["debugpy"])
        session.run.on_process({"systemProcessId": program.pid})
        written = processes.bytes_written(program.pid)
        session.all_in.known_in_now(written)  # as a mark that came back leaves it
        assert session.all_in.nothing_written()  # no child yet: the count, the empty pipe and no child say so

        program.stdin.write(b"go\n")
        program.stdin.flush()
        wait_until_sync(psutil.Process(program.pid).children, bool, guard=10, normal="0.1 s to start the child")
        assert processes.bytes_written(program.pid) == written and processes.unread_in_pipes(program.pid) == 0
        assert not session.all_in.nothing_written()
    finally:
        for child in psutil.Process(program.pid).children():
            child.kill()
        program.kill()
        program.wait()
