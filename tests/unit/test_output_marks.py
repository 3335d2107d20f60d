"""Marks taken out of the program's output however the adapter splits them, and only marks: text that merely
looks like one's beginning is the program's and is kept."""

from __future__ import annotations

import asyncio

from dap2mcp.session.marks import PREFIX, Marks


async def test_a_mark_is_back_once_its_text_came_and_is_never_shown() -> None:
    marks = Marks()
    template, back = marks.new((1, 2))
    one, two = template % 1, template % 2
    assert marks.take_out("stdout", f"line 1\n{one}line 2\n") == "line 1\nline 2\n"
    assert back[1].done() and not back[2].done()
    assert marks.take_out("stdout", two) == ""  # stderr's mark on stdout: debugpy's pipes may be one
    assert back[2].done()


async def test_a_mark_split_across_texts_is_held_until_its_end_comes() -> None:
    marks = Marks()
    template, back = marks.new((1,))
    mark = template % 1
    pieces = ["flood ends", mark[:3], mark[3:9], mark[9:] + "after"]
    shown = [marks.take_out("stdout", piece) for piece in pieces]
    assert shown == ["flood ends", "", "", "after"] and back[1].done()


async def test_the_programs_own_nul_bytes_and_look_alikes_stay() -> None:
    marks = Marks()
    _, back = marks.new((1,))
    assert marks.take_out("stdout", "a\x00b\x00c") == "a\x00b\x00c"
    unended = PREFIX + "x" * 40
    assert marks.take_out("stdout", unended + "\n") == unended + "\n"  # too long to be a mark
    assert marks.take_out("stderr", PREFIX[:4]) == ""  # may be a mark's beginning: held back
    assert marks.take_out("stderr", "no mark\n") == PREFIX[:4] + "no mark\n"  # and given back when it is not
    assert not back[1].done()


async def test_a_mark_forgotten_after_its_wait_is_still_taken_out() -> None:
    marks = Marks()
    template, back = marks.new((1,))
    marks.forget(back)
    assert marks.take_out("stdout", "x" + template % 1 + "y") == "xy"
    assert not back[1].done()
    await asyncio.sleep(0)
