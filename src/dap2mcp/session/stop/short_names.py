"""Function names as an agent reads them: a C++ or Rust name long with template (generic) arguments has the
innermost shown as `…` (a C++ name of 300 characters came twice a frame, a Rust test harness's were 200)."""

from __future__ import annotations

NAME_CHARS = 100
"""A function name longer than this has its innermost template arguments shown as `…`, level by level."""


def short_name(name: str, limit: int = NAME_CHARS) -> str:
    """`name` with the template (generic) arguments nested deepest shown as `…`, one level at a time, until it
    fits in `limit`: `std::panicking::catch_unwind::<core::panic::AssertUnwindSafe<…>, core::result::Result<…>>`.
    A name whose angle brackets do not pair up (an `operator<`, a `->` in a type) is left as it is."""
    if len(name) <= limit:
        return name
    depths = _depths(name)
    if depths is None:
        return name
    deepest = max(depths, default=0)
    for keep in range(deepest - 1, -1, -1):
        shown = _elided(name, depths, keep)
        if len(shown) <= limit or keep == 0:
            return shown
    return name


def _depths(name: str) -> list[int] | None:
    """For each character of `name`, how many template brackets it is inside (a bracket itself counts as
    outside the pair it opens or closes); None where they do not pair up."""
    depths, depth = [], 0
    for i, char in enumerate(name):
        if char == "<" and not name[:i].endswith(("operator", "operator<")):
            depths.append(depth)
            depth += 1
        elif char == ">" and not name[:i].endswith(("-", "operator", "operator>")):
            depth -= 1
            if depth < 0:
                return None
            depths.append(depth)
        else:
            depths.append(depth)
    return depths if depth == 0 else None


def _elided(name: str, depths: list[int], keep: int) -> str:
    """`name` with what lies deeper than `keep` brackets shown as one `…` per bracket pair."""
    out: list[str] = []
    for char, depth in zip(name, depths, strict=True):
        if depth <= keep:
            out.append(char)
        elif not out or out[-1] != "…":
            out.append("…")
    return "".join(out)
