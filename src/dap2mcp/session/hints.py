"""What a result suggests doing next, where its state alone would leave an agent guessing."""

from __future__ import annotations

from .models import Context

ATTACHED = "attached; the program runs on: `pause` to stop it, or set a breakpoint and `wait`"
ALREADY_PAUSED = "already paused here; `continue` or `step` to move on"
PAUSE_PENDING = ("not stopped yet: a thread inside a blocking call (a sleep, a lock, a read) stops only when that "
                 "call returns; call `wait` to take the stop then, or `context` to look without waiting")
PAUSE_IN_LIBRARY = ("; or it runs library code, where debugpy with justMyCode stops only in files it was told are "
                    "the program's (those on its threads' stacks, where the process could be asked): `debug` with "
                    "justMyCode: false stops anywhere")
OUT_OF_LIBRARY = ("stepped out of the library code the program was paused in, back to its own frame where that call "
                  "returns; `step out` again to leave this function")
TO_NOT_REACHED = "the program ended without reaching the `to` location"
KEPT_FOR_RESTART = "the program has ended; the breakpoint will be set on `restart`"
RESTART_AGAIN = ("the previous session was ended; its breakpoints and snapshots are kept: fix the cause and `restart` "
                 "again")


def passed_over(calls: tuple[str, ...]) -> str:
    shown = ", ".join(calls[:5]) + (", ..." if len(calls) > 5 else "")
    return (f"`step in` passed over {shown}: library or built-in code, not the program's own. To stop inside "
            "library code, set a breakpoint in its file, or `debug` with justMyCode: false")


def passed_over_sourceless(calls: tuple[str, ...]) -> str:
    return (f"`step in` passed over {', '.join(calls)}: code whose source is not on this machine (the C library's "
            "assembly), as lldb does; to stop inside one, set a `breakpoint` on its function and `disassemble` there")


def started_past(took: float, timeout: float, hint: str | None) -> str:
    return (f"starting the program (its build included) took {took:.1f}s, all of the timeout of {timeout:g}s, so "
            "its first stop was not waited for; " + (hint or "call `wait` to wait for it"))


def at_result(ctx: Context, *, timed_out: bool, again: str | None) -> str | None:
    """The hint any execution result may carry; the tools add their own where only they know the case."""
    if timed_out and ctx.state == "running":
        return (f"still running after the timeout; call {again or '`wait`'} to keep waiting, "
                "`pause` to stop it, or `context` to look without waiting")
    if ctx.state == "paused" and ctx.reason != "core" and ctx.location is not None and ctx.location.line is None \
            and not any(s.variables for s in ctx.scopes or ()) and len(ctx.frames or ()) == 1:  # debugpy, paused in its first ~100 ms
        return ("paused before the program's first line ran: nothing to show yet; `step` over to reach its "
                "first line, or set a breakpoint and `continue`")
    if ctx.exception is not None and "EOFError" in f"{ctx.exception.typeName} {ctx.exception.exceptionId}":
        return ("the program read from stdin, which is empty while debugging (the debuggee's stdin is "
                "/dev/null): give the input as arguments, an environment variable or a file")
    return None


def children(found: list[str]) -> str:
    return (f"the program started {len(found)} process{'es' * (len(found) > 1)} that run{'s' * (len(found) == 1)} "
            f"without the debugger: {', '.join(found[:5])}{' …' * (len(found) > 5)}; breakpoints do not stop "
            "there. To debug that code, run it in the program's own process (a server's reloader off, e.g. "
            "`flask run --no-reload` or use_reloader=False; a worker's function called directly)")


EXIT_COMING = "its exit code is not yet known: its process is still ending; `info sessions` shows it once it has"


def child_ended(child: str, parent: str, state: str, exit_known: bool, exit_coming: bool = False,
                reloader: str | None = None) -> str:
    """A child process's session ended: the agent's next call without sessionId acts on its parent's.
    `exit_coming`: its process is still ending, so its exit code is not known yet (not unreadable);
    `reloader`: who restarts the child, where its end is a restart (`AdapterProfile.reloader`)."""
    if reloader is not None:
        return (f"{reloader} is restarting the server: its process (session {child}) ended to run the changed "
                f"files, and a new one starts as another child session of {parent} (the current session again, "
                f"{state}), its breakpoints moved with the edits (`breakpointNotes` at its first stop): `wait` "
                "for its next stop")
    then = {"running": "`wait` for its next stop or its end", "terminated": "it has ended too"}.get(state, "`continue` it")
    unknown = "" if exit_known else (f" ({EXIT_COMING})" if exit_coming
                                     else " (its exit code could not be read: see docs/sessions.md)")
    return (f"the child process of session {child} ended{unknown}; session "
            f"{parent}, its parent, is the current session again ({state}): {then}")


def current_changed(stopped: str, asked: str, state: str) -> str:
    """A call on one session answered with another's stop (a child process's, stopped first)."""
    return (f"this is session {stopped}'s stop, not {asked}'s: {stopped} is the current session now, so calls without "
            f"sessionId act on it; {asked} is {state}")
