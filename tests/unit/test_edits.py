"""Line breakpoints across an edit of their file (session/breakpoints/edits.py), on real files."""

from __future__ import annotations

import os
from pathlib import Path

from dap2mcp.session.breakpoints.breakpoint import Breakpoint
from dap2mcp.session.breakpoints.edits import follow, read_lines

BEFORE = ["def f(items):", "    total = 0", "    for item in items:", "        total += item", "    return total", ""]


def set_at(path: Path, line: int, bp_id: int = 1) -> Breakpoint:
    return Breakpoint(id=bp_id, file=str(path), line=line, source=read_lines(str(path)))


def write(path: Path, lines: list[str]) -> None:
    path.write_text("\n".join(lines))
    os.utime(path, ns=(path.stat().st_mtime_ns + 1_000_000, path.stat().st_mtime_ns + 1_000_000))


def followed(tmp_path: Path, line: int, after: list[str]) -> Breakpoint:
    """A breakpoint set on `line` of a file holding BEFORE, followed through its edit into `after`."""
    source = tmp_path / "f.py"
    write(source, BEFORE)
    bp = set_at(source, line)
    write(source, after)
    follow([bp])
    return bp


def test_a_breakpoint_moves_with_its_code_when_lines_are_inserted_above(tmp_path: Path) -> None:
    bp = followed(tmp_path, 4, ["import os", "import re", *BEFORE])
    assert bp.line == 6 and not bp.lost
    assert bp.edited == "f.py changed since it was set: moved from line 4 to line 6 with its code, `total += item`"
    follow([bp])  # the next restart compares with the file as this one found it
    assert bp.line == 6


def test_an_unchanged_file_changes_nothing_and_an_indent_is_no_change(tmp_path: Path) -> None:
    source = tmp_path / "f.py"
    write(source, BEFORE)
    bp = set_at(source, 4)
    follow([bp])
    write(source, [line.replace("    ", "  ") for line in BEFORE])
    follow([bp])
    assert (bp.line, bp.edited, bp.lost) == (4, None, False)


def test_the_line_that_was_fixed_keeps_its_breakpoint(tmp_path: Path) -> None:
    """The agent's breakpoint was on the buggy line, which the fix rewrote: it stays there, to check the fix."""
    bp = followed(tmp_path, 4, ["# fixed", *BEFORE[:3], "        total += item * 2", *BEFORE[4:]])
    assert bp.line == 5 and not bp.lost and bp.active
    assert bp.edited == ("f.py changed since it was set: line 4 (now 5), `total += item`, was edited and now reads "
                         "`total += item * 2`")


def test_a_removed_line_is_not_sent(tmp_path: Path) -> None:
    bp = followed(tmp_path, 4, [*BEFORE[:3], *BEFORE[4:]])
    assert bp.lost and not bp.active and bp.state == "pending"
    assert bp.note == ("f.py changed since it was set: line 4, `total += item`, is no longer in it, so the breakpoint "
                       "is not set")


def test_a_file_cut_short_below_the_breakpoint_does_not_send_it(tmp_path: Path) -> None:
    bp = followed(tmp_path, 5, BEFORE[:2])
    assert bp.lost and "line 5, `return total`, is no longer in it" in (bp.note or "")


def test_breakpoints_of_one_file_state_share_its_lines(tmp_path: Path) -> None:
    source = tmp_path / "f.py"
    write(source, BEFORE)
    assert set_at(source, 2).source is set_at(source, 4).source


def test_a_file_that_is_gone_is_left_to_the_adapter(tmp_path: Path) -> None:
    source = tmp_path / "f.py"
    write(source, BEFORE)
    bp = set_at(source, 4)
    source.unlink()
    follow([bp])
    assert (bp.line, bp.edited, bp.lost) == (4, None, False)


def test_a_lost_breakpoint_stays_lost_at_the_next_restart(tmp_path: Path) -> None:
    """Its line and its lines stay those of the file it was set in: compared again, it is still gone, rather
    than sent with its old number to whatever code is there now."""
    bp = followed(tmp_path, 4, [*BEFORE[:3], *BEFORE[4:]])
    assert bp.lost
    bp.lost, bp.edited = False, None  # a new run, as the registry carries it
    follow([bp])
    assert bp.lost and bp.line == 4


def test_two_breakpoints_never_end_on_one_line(tmp_path: Path) -> None:
    """An adapter keeps one breakpoint per line: the one that moved there is not set, and says why."""
    source = tmp_path / "f.py"
    write(source, BEFORE)
    first = set_at(source, 5, 1)  # `return total`
    write(source, [*BEFORE[:3], *BEFORE[4:]])  # line 4 removed: `return total` is now line 4
    second = set_at(source, 4, 2)  # set after the edit, on the line the first one moves to
    follow([first, second])
    assert second.line == 4 and not second.lost and second.edited is None
    assert first.lost and first.line == 4 and "where another breakpoint is" in (first.edited or "")


def test_a_small_edit_of_a_big_file_is_followed_at_once(tmp_path: Path) -> None:
    source = tmp_path / "big.c"
    body = [f"x{i % 7} += {i % 3};" for i in range(60_000)]
    write(source, body)
    bp = set_at(source, 50_000)
    write(source, ["/* one more */", *body])
    follow([bp])
    assert bp.line == 50_001 and "moved from line 50000 to line 50001" in (bp.edited or "")
