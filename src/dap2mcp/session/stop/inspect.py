"""Builds the bounded context an agent reads at a stop: frames, scopes, variables, exception.

Requests that do not depend on each other go out together, so a context costs about three
round trips to the adapter (stack, scopes, variables), the same as a hand-written DAP client.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, Protocol, overload

from ...background import unlogged
from ...dap import AdapterRefused, bodies
from ...errors import DebugError, ErrorCode, Failure
from ..models import Context, ExceptionDetails, Frame, Location, Scope, Thread, Variable
from ..source_lines import line_text


class Requester(Protocol):
    """Anything that sends a DAP request and returns its body, typed where the command's answer has a type
    (`bodies.RESPONSES`): the link, or a session."""

    @overload
    async def request(self, command: Literal["stackTrace"], arguments: dict[str, Any] | None = None,
                      timeout: float = ...) -> bodies.StackTraceBody: ...
    @overload
    async def request(self, command: Literal["scopes"], arguments: dict[str, Any] | None = None,
                      timeout: float = ...) -> bodies.ScopesBody: ...
    @overload
    async def request(self, command: Literal["variables"], arguments: dict[str, Any] | None = None,
                      timeout: float = ...) -> bodies.VariablesBody: ...
    @overload
    async def request(self, command: Literal["threads"], arguments: dict[str, Any] | None = None,
                      timeout: float = ...) -> bodies.ThreadsBody: ...
    @overload
    async def request(self, command: str, arguments: dict[str, Any] | None = None,
                      timeout: float = ...) -> dict[str, Any]: ...


async def top_frame(adapter: Requester, thread_id: int | None) -> bodies.StackFrame | None:
    """The stopped thread's innermost frame as the adapter lists it (None where it lists none)."""
    stack = await adapter.request("stackTrace", {"threadId": thread_id, "levels": 1})
    return stack.stackFrames[0] if stack.stackFrames else None


@dataclass(slots=True)
class ViewScope:
    """A scope of a frame as a view reads it: the adapter's scope, and what dap2mcp made of it."""

    scope: bodies.Scope
    listed: bool
    """Its variables are read: the adapter calls it cheap, or it was asked for (see `ScopeChoice`)."""
    unreadable: str | None = None
    """The adapter's reason for not listing its variables, where it would not."""

    @property
    def name(self) -> str:
        return self.scope.name

    @property
    def reference(self) -> int:
        return self.scope.variablesReference


@dataclass(frozen=True)
class Preview:
    """A value's first level, shown instead of the adapter's text where that hides it (see `session.stop.preview`)."""

    text: str
    members: list[bodies.Variable] | None = None
    """The members it was made of (as the adapter listed them), where it read them: a stop snapshot records them,
    so that a changed field or element is a change (a struct's own text under lldb or gdb never changes)."""


Previews = dict[int, Preview]
"""Previews by the `id()` of the variable they stand for, kept beside the variables they preview."""

Variables = dict[int, list[bodies.Variable]]
"""Variables by the reference of the scope (or value) that lists them."""

Progress = Callable[[list[ViewScope], Variables], None]
"""Told a frame's scopes and, by reference, the variables read so far, each time a scope's come in."""

Relist = Callable[[int, str], Awaitable[list[bodies.Variable] | None]]
"""Given a frame and the adapter's reason for not listing one of its scopes, the scope's variables read
another way, or None (see `OwnEvaluations.unlisted_variables`)."""

Reread = Callable[[int, list[ViewScope], Variables], Awaitable[None]]
"""Given a frame, its scopes and their variables by reference, reads the variables' values again in place (see
`OwnEvaluations.reread`)."""


@dataclass(frozen=True)
class Limits:
    value_chars: int = 300
    variables_per_scope: int = 50
    output_chars: int = 8000
    adapter_output_chars: int = 2000
    threads: int = 50


def clip(text: str, limit: int) -> tuple[str, bool]:
    if len(text) <= limit:
        return text, False
    return text[: limit - 1] + "…", True


def to_variable(raw: bodies.Variable, limits: Limits, preview: Preview | None = None) -> Variable:
    value, cut = clip(preview.text if preview is not None else raw.value, limits.value_chars)
    return Variable(
        name=raw.name,
        value=value,
        type=clip(raw.type, limits.value_chars)[0] if raw.type else None,  # gdb: 9,771 for a C++ map
        variablesReference=raw.variablesReference or None,
        valueTruncated=cut or None,
    )


def to_frame(raw: bodies.StackFrame) -> Frame:
    source = raw.source
    return Frame(
        id=raw.id,
        function=raw.name,
        file=(source.path or source.name) if source is not None else None,
        line=raw.line or None,
        column=raw.column if raw.column > 0 else None,  # 0: the adapter does not know
        instructionPointer=raw.instructionPointerReference or None,
    )


async def fetch_variables(client: Requester, reference: int, count: int | None = None) -> list[bodies.Variable]:
    """`count`: at most this many (from the first), where the adapter would otherwise build every child."""
    body = await client.request("variables", {"variablesReference": reference, **({"count": count} if count else {})})
    return body.variables


@dataclass(frozen=True)
class ScopeChoice:
    """Which scopes a view lists beyond the adapter's cheap ones: not those read only on request
    (`AdapterProfile.evaluation.scopes_on_request`), and, when asked, expensive ones too. Names are lower-cased."""

    on_request: frozenset[str] = frozenset()
    wanted: frozenset[str] = frozenset()
    closures: re.Pattern[str] | None = None
    """Scopes read only on request in a library's frame, and the outermost of them (a module's) in any frame
    (`AdapterProfile.evaluation.library_scopes`)."""
    library_files: re.Pattern[str] | None = None
    """Files of libraries the program uses (`AdapterProfile.library_files`), library code whatever `justMyCode`."""
    library: bool = False
    """The frame is library code, not the program's own."""

    def for_frame(self, frame: Frame | None, own: Callable[[Frame], bool] | None) -> ScopeChoice:
        """This choice for the scopes of `frame`: whether it is library code decides which closures are listed."""
        library = frame is not None and (own is not None and not own(frame) or self.library_files is not None
                                         and bool(self.library_files.search(str(frame.file or ""))))
        return dataclasses.replace(self, library=library)

    def mark(self, scopes: list[bodies.Scope]) -> list[ViewScope]:
        """The scopes as the adapter gave them, each with whether a view lists its variables."""
        closures = [i for i, scope in enumerate(scopes)
                    if self.closures is not None and self.closures.search(scope.name.lower())]
        collapsed = set(closures) if self.library else set(closures[-1:])
        marked = []
        for index, scope in enumerate(scopes):
            name = scope.name.lower()
            listed = name in self.wanted or not (name in self.on_request or index in collapsed or unexpanded(scope))
            marked.append(ViewScope(scope, listed))
        return marked


async def fetch_scopes(client: Requester, frame_id: int, choice: ScopeChoice = ScopeChoice(),
                       relist: Relist | None = None) -> tuple[list[ViewScope], Variables]:
    """The frame's scopes, and the variables of each cheap one (expensive ones stay unexpanded)."""
    try:
        body = await client.request("scopes", {"frameId": frame_id})
    except Failure as exc:
        if isinstance(exc, AdapterRefused):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"unknown frameId {frame_id}: {exc.message}") from exc
        raise
    scopes = choice.mark(body.scopes)
    cheap = cheap_references(scopes)
    if len(cheap) == 1:
        fetched = [await _variables_or_why(client, cheap[0])]
    else:
        fetched = await asyncio.gather(*(_variables_or_why(client, ref) for ref in cheap))
    read = dict(zip(cheap, fetched, strict=True))
    for ref, why in list(read.items()) if relist is not None else ():
        if isinstance(why, str) and (variables := await relist(frame_id, why)) is not None:
            read[ref] = variables
    for scope in scopes:  # the rest of the stop is still worth showing
        if isinstance(why := read.get(scope.reference), str):
            scope.unreadable = why
    return scopes, {ref: variables for ref, variables in read.items() if not isinstance(variables, str)}


async def _variables_or_why(client: Requester, reference: int) -> list[bodies.Variable] | str:
    """A scope's variables, or the adapter's reason for not listing them (cdt-gdb-adapter cannot list an
    outer frame holding an array: "No symbol "arr" in current context")."""
    try:
        return await fetch_variables(client, reference)
    except AdapterRefused as exc:
        return exc.message


def cheap_references(scopes: list[ViewScope]) -> tuple[int, ...]:
    return tuple(s.reference for s in scopes if s.reference and s.listed)


@dataclass(frozen=True)
class Guess:
    """The ids the last stop's reads used. Where an adapter hands them out again at the next stop
    (`AdapterProfile.stops.steady_ids`), that stop's scopes and variables can be asked for together with its
    stack, saving two round trips; the answers count only where the stack and the scopes confirm the ids.
    Where a frame's scopes follow from its id alone (`AdapterProfile.evaluation.scopes_by_frame`), the last stop's
    `scopes` are kept here and not asked for again: the stack confirming the frame confirms them."""

    frame_id: int
    references: tuple[int, ...]
    scopes: tuple[ViewScope, ...] | None = None


class ReadAhead:
    """The scopes and variables requests sent on a `Guess`, before the stack says whether it holds."""

    def __init__(self, client: Requester, guess: Guess, choice: ScopeChoice) -> None:
        self.guess = guess
        self._choice = choice
        self._scopes = None if guess.scopes is not None else \
            _background(client.request("scopes", {"frameId": guess.frame_id}))
        self._variables = [_background(fetch_variables(client, ref)) for ref in guess.references]

    async def answers(self, frame_id: int | None, progress: Progress | None = None) -> tuple[
            list[ViewScope], Variables] | None:
        """The frame's scopes and variables if the guess held for it; None if it did not. `progress` is
        told of each scope's variables as they come in (see `fetch_view`)."""
        try:
            if frame_id != self.guess.frame_id:
                return None
            if self._scopes is None:
                scopes = list(self.guess.scopes or ())  # copies, made when the guess was kept
            else:
                scopes = self._choice.mark((await self._scopes).scopes)
            if cheap_references(scopes) != self.guess.references:
                return None
            variables: Variables = {}
            for reference, answer in zip(self.guess.references, self._variables, strict=True):
                variables[reference] = await answer
                if progress is not None:
                    progress(scopes, variables)
            return scopes, variables
        except AdapterRefused:  # only a refusal: after a timeout or a dead adapter, asking again cannot help
            return None  # a guessed id the adapter did not know: ask again the plain way
        finally:
            self.drop()

    def drop(self) -> None:
        for task in (self._scopes, *self._variables):
            if task is not None:
                task.cancel()


def _background(read: Any) -> asyncio.Future[Any]:
    return unlogged(asyncio.ensure_future(read))


def unexpanded(scope: bodies.Scope) -> bool:
    """Scopes the adapter would have shown by name only: it calls them expensive, or they hold CPU registers (see
    `ScopeChoice` for those a view lists all the same, and those it names only)."""
    return scope.expensive or _registers(scope)


class Row(NamedTuple):
    """A scope as a context shows it: the variables it lists of it (None: named, not listed), and their number
    before the cut."""

    scope: ViewScope
    variables: list[bodies.Variable] | None
    total: int = 0


def shown_rows(raw_scopes: list[ViewScope], variables: Variables, limits: Limits, hidden: frozenset[str] = frozenset(),
               toolchain: re.Pattern[str] | None = None) -> list[Row]:
    """Each scope with the raw variables a context lists of it. Left out: the adapter's own groupings (`hidden`), the
    language library's globals (`toolchain`), and a listed scope with nothing else in it."""
    rows: list[Row] = []
    for s in raw_scopes:
        raw = variables.get(s.reference)
        if raw is None:
            rows.append(Row(s, None))
            continue
        raw = [v for v in raw if v.name not in hidden]
        if toolchain is not None and s.name.lower() == "globals":
            raw = [v for v in raw if not toolchain.search(v.name)]
        if raw:
            rows.append(Row(s, raw[: limits.variables_per_scope], len(raw)))
    return rows


def to_scopes(raw_scopes: list[ViewScope], variables: Variables, limits: Limits, hidden: frozenset[str] = frozenset(),
              toolchain: re.Pattern[str] | None = None, previews: Previews | None = None) -> list[Scope]:
    """Counts appear only where something was cut (see `shown_rows` for what is left out); `previews`: see
    `session.stop.preview`."""
    previews = previews or {}
    scopes = []
    for s, raw, total in shown_rows(raw_scopes, variables, limits, hidden, toolchain):
        if raw is not None:
            shown = [to_variable(v, limits, previews.get(id(v))) for v in raw]
            cut = total > len(shown)
            scopes.append(Scope(name=s.name, variables=shown, total=total if cut else None, truncated=cut or None))
        elif s.unreadable:
            scopes.append(Scope(name=s.name, variables=[], unreadable=s.unreadable))
        else:  # expensive scopes (registers, big globals) are named but not expanded; a count where known, but
            # not for registers: lldb-dap counts its register sets there ("total: 3"), not registers
            named = None if _registers(s.scope) else s.scope.namedVariables or None
            scopes.append(Scope(name=s.name, variables=[], total=named, expensive=True))
    return scopes


def _registers(scope: bodies.Scope) -> bool:
    return scope.presentationHint == "registers" or scope.name.lower() == "registers"


async def fetch_exception(client: Requester, thread_id: int, limits: Limits) -> ExceptionDetails:
    """The exception's details, or, where the adapter refuses them, why: the rest of the stop is still worth
    showing (Delve has no details for a fatal error such as "all goroutines are asleep - deadlock!")."""
    try:
        body = await client.request("exceptionInfo", {"threadId": thread_id})
    except AdapterRefused as exc:
        return ExceptionDetails(unreadable=clip(exc.message, limits.value_chars)[0])
    details = body.get("details") or {}
    trace = details.get("stackTrace")
    return ExceptionDetails(
        exceptionId=body.get("exceptionId"),
        description=clip(str(body.get("description") or ""), limits.value_chars * 4)[0] or None,
        breakMode=body.get("breakMode"),
        typeName=details.get("fullTypeName") or details.get("typeName"),
        message=details.get("message"),
        stackTrace=clip(trace, limits.value_chars * 10)[0] if trace else None,
    )


@dataclass
class FrameView:
    """What the adapter said about a stopped thread: its stack, the focused frame's scopes and variables."""

    thread_id: int
    frames: list[Frame]
    total_frames: int | None
    focus: Frame | None
    scopes: list[ViewScope]
    variables: Variables
    exception: ExceptionDetails | None
    more_frames: bool = False
    """The adapter gave no count, and as many frames as asked for: there may be more."""
    focus_place: int | None = None
    """The focused frame's place in the stack, where it lies below the frames listed (a short `maxFrames`)."""
    previews: Previews = field(default_factory=dict)
    """Previews of the variables a context shows (see `session.stop.preview`)."""

    @property
    def focus_index(self) -> int:
        """The focused frame's place in the stack: above it, the library code a pause or a crash stopped in."""
        if self.focus_place is not None:
            return self.focus_place
        return self.frames.index(self.focus) if self.focus is not None and self.focus in self.frames else 0


FOCUS_OWN_AT = ("exception", "pause", "step failed", "continue failed", "entry", "core")
"""Stops that land wherever the program happened to be, often inside a library (or where a step the adapter
could not carry out left it): their context focuses on the program's own frame. So does an entry stop: lldb
stops in a function after its prologue, where the first line may begin in library code inlined into it (a Rust
test's `vec![1]`, in `Box::new_uninit`). Breakpoints and steps land where the agent asked."""
OWN_SEARCH = 20
"""How deep such a stop's stack is read for the program's own frame, however few frames are listed: the focus
must not move with `maxFrames`."""


def is_own(frame: Frame, runtime: re.Pattern[str] | None, library: tuple[str, ...]) -> bool:
    """A frame of the program's own code: not the language runtime's or library's, and with its source here
    (a crash inside libc's `strlen` is shown where the program called it)."""
    return not (runtime and runtime.match(frame.function)) and not str(frame.file or "").startswith(library) \
        and has_source(frame)


def has_source(frame: Frame) -> bool:
    """Whether the frame's source file is here to be read (glibc's assembly and Rust's std are not)."""
    return bool(frame.file) and os.path.isfile(str(frame.file))


async def fetch_view(client: Requester, capabilities: dict[str, Any], *, thread_id: int, frame_id: int | None,
                     max_frames: int, reason: str | None, limits: Limits, with_threads: bool = False,
                     own: Callable[[Frame], bool] | None = None, guess: Guess | None = None,
                     frame_index: int | None = None, choice: ScopeChoice = ScopeChoice(),
                     progress: Callable[[FrameView], None] | None = None,
                     relist: Relist | None = None, named: bool = False) -> tuple[FrameView, list[bodies.Thread] | None]:
    """Fetch a thread's view in about three round trips (one, where a `guess` holds): independent
    requests go out together. At an exception or a pause, the focus is the first frame of the program's
    own (`own`, see `is_own`), where there is one.

    Where a guess holds, `progress` is shown the view as each scope's variables come in, its `variables`
    still short of the scopes not yet answered: work that needs only some scopes can be done while the
    adapter answers the others. The view returned holds the same `variables` dict, complete.

    `named`: the agent named the thread, so the adapter's refusal of its stack means an unknown id."""
    searched = frame_id is None and own is not None and reason in FOCUS_OWN_AT
    levels = max(max_frames, OWN_SEARCH) if searched else max_frames
    stack_req = client.request("stackTrace", {"threadId": thread_id, "startFrame": 0, "levels": levels})
    want_exception = reason == "exception" and capabilities.get("supportsExceptionInfoRequest")
    ahead = None
    try:
        if with_threads or want_exception:
            threads_req = client.request("threads") if with_threads else _none()
            exc_req = fetch_exception(client, thread_id, limits) if want_exception else _none()
            stack, threads, exception = await asyncio.gather(stack_req, threads_req, exc_req)
        elif guess is not None and frame_id is None:
            stack_task = _background(stack_req)  # tasks start in order: the stack request goes out first
            ahead = ReadAhead(client, guess, choice)
            try:
                stack, threads, exception = await stack_task, None, None
            finally:
                stack_task.cancel()
        else:  # one request, awaited here rather than in a task of its own
            stack, threads, exception = await stack_req, None, None
    except BaseException as exc:
        if ahead is not None:
            ahead.drop()
        if isinstance(exc, AdapterRefused):  # the agent's id only if it gave one
            raise DebugError(ErrorCode.INVALID_ARGUMENT if named else ErrorCode.ADAPTER_ERROR,
                             f"cannot read thread {thread_id}: {exc.message}") from exc
        raise
    read = [to_frame(f) for f in stack.stackFrames][:levels]
    frames = read[:max_frames]
    total = stack.totalFrames
    more = not isinstance(total, int) and len(read) >= max_frames  # no count given: a full page may go on
    mine = next((f for f in read if own(f)), None) if searched and own is not None else None
    focus_id = frame_id if frame_id is not None else (mine or frames[0]).id if frames else None
    focus = next((f for f in read if f.id == focus_id), None)
    if focus is None and frame_index is not None and frame_index < len(frames):
        focus = frames[frame_index]  # `frame_id` came from an earlier answer at this stop, which numbered it so
    below = read.index(focus) if focus is not None and focus not in frames else None
    view = FrameView(thread_id=thread_id, frames=frames, total_frames=total if isinstance(total, int) else None,
                     focus=focus, scopes=[], variables={}, exception=exception, more_frames=more, focus_place=below)
    told = None if progress is None else \
        lambda scopes, variables: progress(dataclasses.replace(view, scopes=scopes, variables=variables))
    known = await ahead.answers(focus_id, told) if ahead is not None else None
    if known is not None:
        view.scopes, view.variables = known
    else:
        view.scopes, view.variables = await fetch_scopes(client, focus_id, choice.for_frame(focus, own),
                                                         relist) if focus_id is not None else ([], {})
    return view, threads.threads if threads is not None else None


def view_context(view: FrameView, *, reason: str | None, description: str | None, limits: Limits,
                 threads: list[bodies.Thread] | None, hidden: frozenset[str] = frozenset(),
                 threads_from: int = 0, toolchain: re.Pattern[str] | None = None) -> Context:
    """`threads_from`: the position in the program's thread list that the listed page of threads starts at."""
    focus, frames = view.focus, view.frames
    page = threads[threads_from: threads_from + limits.threads] if threads is not None else None
    cut = (view.total_frames is not None and view.total_frames > len(frames)) or view.more_frames
    return Context(
        state="paused",
        reason=reason,
        description=description,
        threadId=view.thread_id,
        location=Location(file=focus.file, line=focus.line, column=focus.column, function=focus.function,
                          text=line_text(focus.file, focus.line)) if focus else None,
        frames=frames,
        totalFrames=view.total_frames if cut else None,
        framesTruncated=cut or None,
        scopes=to_scopes(view.scopes, view.variables, limits, hidden, toolchain, view.previews),
        exception=view.exception,
        threads=[Thread(id=t.id, name=t.name) for t in page] if page is not None else None,
        threadsTotal=len(threads) if threads is not None else None,
        threadsNext=threads_from + len(page) if page is not None and threads_from + len(page) < len(threads or ()) else None,
    )


async def _none() -> Any:
    return None
