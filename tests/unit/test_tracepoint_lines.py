"""TracepointLines: tracepoints' messages told apart from the program's own output however a pipe cuts it."""

from __future__ import annotations

from dap2mcp.session.breakpoints.tracepoint_lines import Piece, TracepointLines

M = "\x1f"
TEXT = f"out 1\n{M}ab12cd:3{M}'main' i=0\nspans\nlines{M}\nout 2 {M}ab12cd:3{M} not at a line start\n{M}x\n"


def split_all(lines: TracepointLines, chunks: list[str]) -> list[Piece]:
    pieces = [piece for chunk in chunks for piece in lines.split(chunk)]
    merged: list[Piece] = []
    for piece in pieces:  # the program's text may come in any number of pieces: join neighbours
        if merged and piece.nonce is None and merged[-1].nonce is None:
            merged[-1] = Piece(merged[-1].text + piece.text)
        else:
            merged.append(piece)
    return merged


def test_a_message_of_several_lines_is_taken_whole_wherever_the_text_is_cut():
    expected = [Piece("out 1\n"), Piece(f"{M}ab12cd:3{M}'main' i=0\nspans\nlines{M}\n", "ab12cd"),
                Piece(f"out 2 {M}ab12cd:3{M} not at a line start\n{M}x\n")]
    for cut in range(1, len(TEXT)):
        assert split_all(TracepointLines(M), [TEXT[:cut], TEXT[cut:]]) == expected, cut
    assert split_all(TracepointLines(M), list(TEXT)) == expected


def test_text_without_the_mark_passes_at_once_even_without_its_line_end():
    lines = TracepointLines(M)
    assert lines.split("progress 10%") == [Piece("progress 10%")]
    assert lines.split(f"{M}ab:1{M}no line start\n") == [Piece(f"{M}ab:1{M}no line start\n")]
