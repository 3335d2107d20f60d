"""A stop's stack as an agent reads it: the frames below the program's own that only run it (a Rust test
harness's twenty frames of `test::run_test` and `std::panicking`, pytest's and pluggy's calls, Go's
`runtime.main`) are folded into a count. A Rust test's step answered 4.9 KB, most of it that harness.
`context {libraryFrames: true}` lists every frame.
"""

from __future__ import annotations

from collections.abc import Callable

from ..models import Context, Frame


def fold(ctx: Context, own: Callable[[Frame], bool], focus_id: int | None) -> None:
    """Leave out the frames below the lowest frame of the program's own (or the focused one, where lower),
    where there are two or more; `framesFolded` counts them. A stack with no frame of the program's own is
    left whole: it is all there is to read."""
    frames = ctx.frames or []
    lowest = max((i for i, f in enumerate(frames) if own(f) or f.id == focus_id), default=None)
    if lowest is None or len(frames) - lowest - 1 < 2:
        return
    ctx.framesFolded = len(frames) - lowest - 1  # the frames past `maxFrames` stay counted by totalFrames
    ctx.frames = frames[: lowest + 1]
