"""The breakpoints of a session, with stable ids, kept in step with the adapter, and counted.

DAP replaces all breakpoints of a file (or all function or exception breakpoints) at once, and
adapters renumber them; so the registry owns the ids an agent sees and re-sends whole lists.
A tracepoint's message goes out with an invisible tag naming its breakpoint, so the output it
comes back as can be counted against the right one.
"""

from __future__ import annotations

import itertools
import os
import re
import secrets
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import replace
from typing import Any, Literal, Protocol, overload

from ...adapters import AdapterProfile
from ...adapters.base import FunctionFilter, FunctionPlace
from ...dap import bodies
from ...errors import DebugError, ErrorCode
from ..hints import KEPT_FOR_RESTART
from ..models import BreakpointView
from ..source_lines import read_lines
from .breakpoint import NO_OPTIONS, Breakpoint, check_exception_filter, check_options, resolve_place
from .dap_form import dap_form, message_end
from .edits import follow
from .specs import BreakpointOptions, BreakpointSpec, Kind


class Request(Protocol):
    """How the registry asks the adapter (the session's `tolerant_request`): the `set…Breakpoints` answers typed."""

    @overload
    async def __call__(self, command: bodies.BreakpointsCommand,
                       arguments: dict[str, Any]) -> bodies.BreakpointsBody: ...
    @overload
    async def __call__(self, command: Literal["setExceptionBreakpoints"],
                       arguments: dict[str, Any]) -> bodies.ExceptionBreakpointsBody: ...
    @overload
    async def __call__(self, command: str, arguments: dict[str, Any]) -> dict[str, Any]: ...


class BreakpointRegistry:
    def __init__(self, profile: AdapterProfile, carried: Iterable[Breakpoint] = (), *,
                 capabilities: Callable[[], dict[str, Any]] = dict, edited: bool = True,
                 place_function: Callable[[str], Awaitable[FunctionPlace]] | None = None,
                 function_filters: Callable[[], tuple[FunctionFilter, ...]] = tuple,
                 as_run: Callable[[str], str] = str,
                 file_refusal: Callable[[str], str | None] = lambda path: None) -> None:
        """`edited`: the run about to start runs the program's files as they are now (built or read again),
        so carried line breakpoints follow edits of them (edits.py); not a binary left as it was, or a
        process attached to again. `place_function`: the profile's `function_place` for this program;
        `function_filters`: its `function_filters` for this program; `as_run`: a local file's path as the
        program names it (`Target.remote_path`), for what the adapter takes untranslated (`own_code_request`);
        `file_refusal`: the profile's `file_refusal` for this program."""
        self._items: dict[int, Breakpoint] = {}
        for bp in carried:  # a new run: verified again, counted afresh, where its code is now
            if not bp.temporary:
                self._items[bp.id] = replace(bp, verified=False, message=None, adapter_id=None, actual_line=None,
                                             hit_count=0, notifications_sent=0, edited=None, lost=False,
                                             held=False, data_id=None, frame=None, value=None)
        if edited:
            follow(self._items.values())
        self._profile = profile
        self.nonce = secrets.token_hex(3)  # so a program printing the same invisible characters is not taken for one
        """Names this registry in its tracepoints' tags, by which the session that reads them finds its owner."""
        mark = re.escape(profile.breakpoints.log_tag)
        self._tag = f"{profile.breakpoints.log_tag}{self.nonce}:{{}}{profile.breakpoints.log_tag}"
        self._tagged = re.compile(f"^(?P<before>{profile.breakpoints.log_prefix})?{mark}{self.nonce}:(?P<id>\\d+){mark}")
        self._message_end = message_end(profile)
        self._counted_cycle = 0
        self._last_exception: set[int] = set()
        self._ids = itertools.count(max(self._items, default=0) + 1)
        self._temporary_ids = itertools.count(-1, -1)  # hidden ones do not use up the ids agents see
        self._capabilities = capabilities
        self._function_ids: set[int] = set()
        """The ids the adapter gave the function breakpoints it holds now."""
        self._place_function = place_function
        self._function_places: dict[str, FunctionPlace] = {}
        self._own_files: list[str] = []
        """Files the agent put a breakpoint in, which the adapter was told are the program's own code: a
        breakpoint stops there even in a library, and stepping there stays in them for the session."""
        self._own_for_now: list[str] = []
        """Library files the program's own only while a pause lands in them (`own_code_for_now`)."""
        self._function_filters = function_filters
        self._as_run = as_run
        self._file_refusal = file_refusal
        self.later_notes: list[str] = []
        """What became of breakpoints between answers (a watch taken out at a stop never shown): the next answer
        says it (`take_later_notes`)."""
        self._given_conditions: dict[str, str] = {}
        """Conditions as sent, where they differ from the agent's (`conditions_sent`), to the agent's."""
        self._stand_ins: dict[str, Breakpoint] = {}
        """The hidden function breakpoint that stands for each function filter that is on, by filter id."""
        self._filters_silenced = False
        """Set by `take_stand_ins`: no function filter is sent again, whatever the agent's breakpoints say."""

    def all(self) -> list[Breakpoint]:
        return list(self._items.values())

    def count_with(self, program: BreakpointRegistry) -> None:
        """Take new ids from `program`'s count: a child process's session holds its program's breakpoints under
        the ids the agent knows them by, and one set there must not get an id the program gave another."""
        self._ids = program._ids

    def sharing(self, bp: Breakpoint) -> list[Breakpoint]:
        """The agent's active breakpoints at `bp`'s function, where a second one gets no answer of its own
        (lldb-dap keeps one breakpoint per name, Delve refuses another)."""
        return [other for other in self._items.values()
                if other is not bp and not other.temporary and other.active and other.function == bp.function]

    def views(self) -> list[BreakpointView]:
        return [bp.view() for bp in self._items.values() if not bp.temporary]

    def notes(self, *, edited: bool = False, bound_elsewhere: Collection[int] = ()) -> list[str]:
        """One line for each breakpoint that moved or is not bound: a start's result says so, since a
        program that runs to its end past a breakpoint that never bound looks like no bug at all. `edited`:
        only those an edit of their file moved or took away (a child process that runs the edited files);
        `bound_elsewhere`: breakpoints another process of the program bound (a worker's file), not said unbound."""
        return [f"breakpoint {bp.id} ({bp.describe()}): {note}" for bp in self._items.values()
                if not bp.temporary and bp.kind != "exception" and bp.options.enabled and (note := bp.note)
                and (bp.edited or not edited) and not (bp.state == "pending" and bp.id in bound_elsewhere)]

    def filters(self) -> list[dict[str, Any]]:
        """The exception filters an agent can set: the adapter's, and those made of function breakpoints."""
        return [*self._adapter_filters(),
                *({"filter": f.filter, "label": f.label, "default": True} for f in self._function_filters())]

    def _adapter_filters(self) -> list[dict[str, Any]]:
        """The adapter's exception filters, those the profile turns on by default marked `default`; empty where
        the adapter has none."""
        on = self._profile.breakpoints.default_exception_filters
        return [{**f, "default": True} if f.get("filter") in on else f
                for f in self._capabilities().get("exceptionBreakpointFilters") or []]

    def default_filters(self) -> list[str]:
        """The exception filters that are on by default and not also set by the agent (an agent's breakpoint on
        one, disabled, turns it off)."""
        own = {bp.exception for bp in self._items.values() if bp.kind == "exception"}
        return [f["filter"] for f in self.filters() if f.get("default") and f["filter"] not in own]

    def caught_by(self, adapter_ids: Iterable[int]) -> FunctionFilter | None:
        """The function filter whose breakpoint the adapter named for a stop, if any."""
        wanted = set(adapter_ids)
        return next((f for f in self._function_filters() if (bp := self._stand_ins.get(f.filter)) is not None
                     and bp.adapter_id is not None and bp.adapter_id in wanted), None)

    def get(self, bp_id: int) -> Breakpoint:
        bp = self._items.get(bp_id)
        if bp is None or bp.temporary:
            raise DebugError(ErrorCode.BREAKPOINT_NOT_FOUND, f"no breakpoint with id {bp_id}")
        return bp

    def new(self, kind: Kind, options: BreakpointOptions = NO_OPTIONS, *, temporary: bool = False, file: str | None = None,
            line: int | None = None, function: str | None = None, exception: str | None = None,
            source: tuple[str, ...] | None = None, bp_id: int | None = None) -> Breakpoint:
        if bp_id is None:
            bp_id = next(self._temporary_ids if temporary else self._ids)
        bp = Breakpoint(id=bp_id, kind=kind, options=options, temporary=temporary,
                        file=file, line=line, function=function, exception=exception, source=source)
        self._items[bp.id] = bp
        return bp

    def register(self, spec: BreakpointSpec, cwd: str | None, *, temporary: bool = False,
                 bp_id: int | None = None) -> Breakpoint:
        """A new breakpoint from an agent's spec, refused if the adapter could not honour all of it; `bp_id`: the
        id another session of the program gave it (see `count_with`)."""
        options, capabilities, profile = spec.over(), self._capabilities(), self._profile
        adapter = profile.name
        if spec.watch:
            if not capabilities.get("supportsDataBreakpoints"):
                raise DebugError(ErrorCode.NOT_SUPPORTED, f"{adapter} has no data breakpoints (no "
                                 f"supportsDataBreakpoints): {profile.watches.watch_instead}")
            check_options("watch", options, capabilities, profile)
            bp = self.new("watch", options)
            bp.watch, bp.access = spec.watch.strip(), spec.access or "write"
            return bp
        if spec.exception:
            check_exception_filter(spec.exception, {"exceptionBreakpointFilters": self.filters()}, adapter)
            check_options("exception", options, capabilities, profile)
            return self.new("exception", options, exception=spec.exception, bp_id=bp_id)
        if spec.function:
            if not capabilities.get("supportsFunctionBreakpoints"):
                raise DebugError(ErrorCode.NOT_SUPPORTED, f"{adapter} has no function breakpoints; set one on a line "
                                 "of the function instead (`file` and `text` find the line by its code)")
            check_options("function", options, capabilities, profile)
            return self.new("function", options, temporary=temporary, function=spec.function, bp_id=bp_id)
        file = spec.file or ""  # a spec with neither exception nor function has a file, and a line or text
        check_options("line", options, capabilities, profile)
        path, line = resolve_place(file, spec.line, spec.text, cwd)
        if why := self._file_refusal(path):
            raise DebugError(ErrorCode.NOT_SUPPORTED, why)
        if not temporary and (same := next((bp for bp in self._items.values() if not bp.temporary and not bp.lost
                                            and bp.file == path and bp.line == line), None)):
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"breakpoint {same.id} is already at {file}:{line} (an "
                             f"adapter keeps one per line); change it with `breakpoint` and id {same.id}")
        return self.new("line", options, temporary=temporary, file=path, line=line, source=read_lines(path),
                        bp_id=bp_id)

    def change(self, bp_id: int, changes: BreakpointOptions) -> tuple[Breakpoint, Breakpoint]:
        """Apply `changes` to a breakpoint's options, checked as a new one would be; (it, a copy from before)."""
        bp = self.get(bp_id)
        merged = changes.over(bp.options)
        check_options(bp.kind, merged, self._capabilities(), self._profile)
        before = replace(bp)
        bp.options = merged
        return bp, before

    def undo_change(self, bp: Breakpoint, before: Breakpoint) -> None:
        """The adapter would not take a change (`change`): the breakpoint is as it was."""
        bp.__dict__.update(before.__dict__)

    def kept_for_restart(self, bp: Breakpoint) -> None:
        """A breakpoint set or changed with no program running: it applies from the next `restart`."""
        bp.message = KEPT_FOR_RESTART

    def discard(self, bp: Breakpoint) -> bool:
        """Forget one breakpoint, hidden or not; False if it was already gone."""
        return self._items.pop(bp.id, None) is not None

    def take(self, ids: Iterable[int]) -> list[Breakpoint]:
        """Remove breakpoints the agent named; hidden (temporary) ones are not the agent's to name."""
        ids = list(ids)
        missing = [i for i in ids if i not in self._items or self._items[i].temporary]
        if missing:
            raise DebugError(ErrorCode.BREAKPOINT_NOT_FOUND, f"no breakpoint with id {', '.join(map(str, missing))}")
        return [self._items.pop(i) for i in ids]

    def take_file(self, file: str, cwd: str | None) -> list[Breakpoint]:
        path = os.path.realpath(os.path.join(cwd or os.getcwd(), file))
        return self.take([bp.id for bp in self._items.values() if bp.file == path and not bp.temporary])

    def take_all(self) -> list[Breakpoint]:
        return self.take([bp.id for bp in self._items.values() if not bp.temporary])

    # -- counting ----------------------------------------------------------------------------

    def count_stop(self, adapter_ids: Iterable[int]) -> list[Breakpoint]:
        """The agent's breakpoints the adapter named for a stop, each counted once more."""
        wanted = set(adapter_ids)
        hit = [bp for bp in self._items.values()
               if not bp.temporary and bp.adapter_id is not None and bp.adapter_id in wanted]
        for bp in hit:
            bp.hit_count += 1
        return hit

    def adapter_ids_at(self, file: str | None, line: int | None, function: str | None) -> list[int]:
        """The adapter's ids of the breakpoints at a place, for adapters that do not name the one they hit."""
        path = os.path.realpath(file) if file else None
        name = (function or "").split("(", 1)[0]
        here = [bp for bp in self._items.values() if bp.adapter_id is not None and (
            (path and bp.file == path and (bp.actual_line or bp.line) == line)
            or (bp.function and name and self.sent_name(bp.function).split("(", 1)[0] == name))]
        if any(bp.temporary for bp in here):  # debugpy and lldb-dap keep one per line: the `to` one took it,
            here = [bp for bp in here if bp.temporary or not (bp.options.condition or bp.options.hitCondition)]  # unchecked
        return [bp.adapter_id for bp in here if bp.adapter_id is not None]

    def count_exception(self, cycle: int, type_name: str | None, break_mode: str | None,
                        caught: FunctionFilter | None = None) -> list[Breakpoint]:
        """The exception breakpoints behind an exception stop (adapters do not name them), counted once;
        `caught`: the function filter that made the stop."""
        if cycle == self._counted_cycle:
            return [bp for bp in self._items.values() if bp.id in self._last_exception]
        filters = {mode: name for name, mode in self._profile.stops.exception_modes}
        shown = (type_name or "").split()[0].rsplit(".", 1)[-1] if type_name else ""
        hit = [bp for bp in self._items.values() if bp.kind == "exception" and bp.active and (
            bp.exception == caught.filter if caught is not None else
            (not break_mode or filters.get(break_mode, bp.exception) == bp.exception)
            and (not bp.options.exceptionTypes or shown in bp.options.exceptionTypes))]
        for bp in hit:
            bp.hit_count += 1
        self._counted_cycle, self._last_exception = cycle, {bp.id for bp in hit}
        return hit

    def take_tracepoint(self, text: str) -> tuple[Breakpoint | None, str]:
        """If `text` is a tracepoint's message: that tracepoint, counted, and the text without its tag."""
        tagged = self._tagged.match(text)
        if tagged is None:
            return None, text
        message = (tagged.group("before") or "") + text[tagged.end():]
        if self._message_end:  # the mark after the message, before its line end
            message = message.replace(self._message_end, "")
        bp = self._items.get(int(tagged.group("id")))
        if bp is None:
            return None, message
        if bp.exhausted:  # off: logged while the adapter was being told, or while it waits to be removed (`spend`)
            return None, ""
        bp.hit_count += 1
        bp.notifications_sent += 1
        return bp, message

    async def spend(self, request: Request, bp: Breakpoint, *, running: bool) -> None:
        """`bp` has used up its notifications: removed from the adapter, or, while the program runs under an
        adapter that does not take changes then (`changed_while_running`), left as it is until `drop_spent`."""
        bp.held = running and not self._profile.breakpoints.changed_while_running
        if not bp.held:
            await self.sync(request, [bp])

    async def drop_spent(self, request: Request) -> None:
        """Remove the spent tracepoints `spend` kept in the adapter: the program is stopped, about to run again."""
        held = [bp for bp in self._items.values() if bp.held]
        for bp in held:
            bp.held = False
        for path in sorted({bp.file for bp in held if bp.file}):
            await self._sync_file(request, path)

    def take_later_notes(self) -> list[str]:
        taken, self.later_notes = self.later_notes, []
        return taken

    def in_given_words(self, text: str) -> str:
        """The adapter's words about a condition (its error), naming the condition as the agent gave it."""
        for sent, given in self._given_conditions.items():
            if sent in text:
                text = text.replace(sent, given)
        return text

    def line_breakpoint_at(self, path: str | None, line: int | None) -> bool:
        """Whether one of the agent's line breakpoints is at `path`:`line`."""
        if not path:
            return False
        here = os.path.realpath(path)
        return any(bp.kind == "line" and bp.file and line in (bp.line, bp.actual_line)
                   and os.path.realpath(bp.file) == here for bp in self._items.values())

    def hit(self, adapter_ids: Iterable[int]) -> list[Breakpoint]:
        wanted = set(adapter_ids)
        return [bp for bp in self._items.values() if bp.adapter_id in wanted]

    # -- talking to the adapter --------------------------------------------------------------

    async def sync(self, request: Request, touched: Iterable[Breakpoint]) -> None:
        """Re-send every list a change touched (removed breakpoints need their list re-sent too)."""
        touched = list(touched)
        places = [await self._function_place(bp.function) for bp in touched if bp.kind == "function" and bp.function]
        for path in sorted({bp.file for bp in touched if bp.file} | {p.file for p in places if p.file and p.line}):
            await self._sync_file(request, path)
        if any(not place.line for place in places):
            await self._sync_functions(request)
        if any(bp.kind == "exception" for bp in touched):
            await self.sync_exceptions(request)
        if any(bp.kind == "watch" for bp in touched):
            await self.sync_watches(request)

    async def sync_watches(self, request: Request) -> None:
        """All resolved, enabled watches in one `setDataBreakpoints` (it replaces the adapter's list)."""
        bps = [bp for bp in self._items.values() if bp.kind == "watch" and bp.active and bp.data_id is not None]
        body = await request("setDataBreakpoints", {"breakpoints": [self._dap_form(bp) for bp in bps]})
        self._apply(bps, body.breakpoints)

    def watches(self) -> list[Breakpoint]:
        return [bp for bp in self._items.values() if bp.kind == "watch"]

    async def sync_everything(self, request: Request) -> None:
        await self.sync(request, self._items.values())
        if not any(bp.kind == "exception" for bp in self._items.values()):
            await self.sync_exceptions(request)  # the adapter's default filters

    async def _own_code(self, request: Request, files: Iterable[str]) -> None:
        """Tell the adapter, where it keeps library code apart, that these files are the program's own."""
        new = [path for path in dict.fromkeys(files) if path not in self._own_files]
        if new and await self._send_own(request, [*self._own_files, *new]):
            self._own_files += new

    async def own_code_for_now(self, request: Request, files: Iterable[str]) -> None:
        """Make `files` the program's own too, until `own_code_as_before` (a pause inside library code); a
        breakpoint's file made the program's own meanwhile keeps them."""
        self._own_for_now = list(files)
        await self._send_own(request, self._own_files)

    @property
    def own_for_now(self) -> bool:
        return bool(self._own_for_now)

    async def own_code_as_before(self, request: Request) -> None:
        self._own_for_now = []
        await self._send_own(request, self._own_files)

    async def _send_own(self, request: Request, files: list[str]) -> bool:
        """The one request that names every file the adapter is to count as the program's own; whether sent."""
        call = self._profile.own_code_request(list(dict.fromkeys([*files, *self._own_for_now])))
        if call is not None:
            await request(*call)
        return call is not None

    async def _sync_file(self, request: Request, path: str) -> None:
        """The file's line breakpoints, with the function breakpoints sent as lines of it (`FunctionPlace.line`)."""
        functions = {bp.id: place.line for bp in self._items.values() if bp.kind == "function" and bp.active
                     and (place := self._function_places.get(bp.function or "")) and place.file == path and place.line}
        bps = [bp for bp in self._items.values() if bp.file == path and (bp.active or bp.held)]
        bps += [self._items[bp_id] for bp_id in functions]
        if bps:
            await self._own_code(request, [self._as_run(path)])
        body = await request("setBreakpoints", {"source": {"path": path}, "breakpoints": [
            self._dap_form(bp) for bp in bps]})
        self._apply(bps, body.breakpoints)
        for bp in bps:
            if bp.id in functions and bp.verified and not bp.message:
                bp.message = (f"set on line {functions[bp.id]}, the function's first line, where each call's generator or "
                              f"coroutine starts: {self._profile.name} never sees such a function called; it stops "
                              "once a call, at its first resumption, with reason `breakpoint`")

    async def _sync_functions(self, request: Request) -> None:
        bps = [bp for bp in self._items.values() if bp.kind == "function" and bp.active]
        places = {bp.function: await self._function_place(bp.function) for bp in bps if bp.function}
        bps = [bp for bp in bps if not (bp.function and places[bp.function].line)]  # sent as lines of their files
        await self._own_code(request, [place.file for place in places.values() if place.file and not place.line])

        async def answers(sent: list[Breakpoint]) -> list[bodies.Breakpoint]:
            body = await request("setFunctionBreakpoints", {"breakpoints": [self._dap_form(bp) for bp in sent]})
            return body.breakpoints

        if not self._profile.breakpoints.function_answers_unordered:
            self._apply(bps, await answers(bps))
            return
        # the answers come in an order of the adapter's own: held ones are told apart by their ids, so
        # new names go one a request, and the one answer with an id not seen before is the new name's
        held = [bp for bp in bps if bp.adapter_id in self._function_ids]
        new = [bp for bp in bps if bp.adapter_id not in self._function_ids]
        for sent in [held + new[:count] for count in range(1, len(new) + 1)] or [held]:
            got = await answers(sent)
            by_id = {bp.adapter_id: bp for bp in sent if bp.adapter_id in self._function_ids}
            fresh = [bp for bp in sent if bp.adapter_id not in self._function_ids]
            matched = [by_id.get(answer.id) or (fresh.pop() if fresh else None) for answer in got]
            for bp, answer in zip(matched, got, strict=True):
                if bp is not None:
                    self._apply([bp], [answer])
            self._function_ids = {answer.id for answer in got if answer.id is not None}

    def sent_name(self, function: str) -> str:
        """The name the adapter was given for a function breakpoint (debugpy: `loads` for `json.loads`)."""
        return self._function_places.get(function, FunctionPlace(function)).name

    async def _function_place(self, name: str) -> FunctionPlace:
        if self._place_function is None:
            return FunctionPlace(name)
        if name not in self._function_places:
            self._function_places[name] = await self._place_function(name)
        return self._function_places[name]

    async def sync_exceptions(self, request: Request) -> None:
        own = {f.filter for f in self._function_filters()}
        off = {bp.exception for bp in self._items.values() if bp.kind == "exception" and not bp.options.enabled}
        bps = [bp for bp in self._items.values() if bp.kind == "exception" and bp.active]
        if own and not self._filters_silenced:
            await self._sync_stand_ins(request, (own - off) | {bp.exception or "" for bp in bps})
        bps = [bp for bp in bps if bp.exception not in own]  # the adapter does not know them
        if self._capabilities().get("exceptionBreakpointFilters") is None:
            return
        defaults = [f["filter"] for f in self._adapter_filters() if f.get("default") and f["filter"] not in off]
        arguments: dict[str, Any]
        if any(bp.options.exceptionTypes for bp in bps):  # types need exceptionOptions, which replace the filters
            modes, root = dict(self._profile.stops.exception_modes), [{"names": [self._profile.stops.exception_category]}]
            options = [{"path": root, "breakMode": modes[name]} for name in defaults if name in modes]
            options += [{"path": root + ([{"names": list(types)}] if (types := bp.options.exceptionTypes) else []),
                         "breakMode": modes.get(bp.exception or "", "always")} for bp in bps]
            arguments = {"filters": [], "exceptionOptions": options}
        else:
            names = dict.fromkeys(defaults + [bp.exception for bp in bps if bp.exception and not bp.options.condition])
            arguments = {"filters": list(names)}
        if conditional := [bp for bp in bps if bp.options.condition]:
            arguments["filterOptions"] = [{"filterId": bp.exception, "condition": bp.options.condition}
                                          for bp in conditional]
        answers = (await request("setExceptionBreakpoints", arguments)).breakpoints
        if answers:
            self._apply(bps, answers)
        else:
            for bp in bps:
                bp.verified, bp.message = True, None

    async def _sync_stand_ins(self, request: Request, on: set[str]) -> None:
        """Function filters are function breakpoints of the registry's own, hidden as the `to` of `continue` is;
        an agent's breakpoint on such a filter stands for it (verified with its stand-in)."""
        changed: set[str | None] = set()
        for f in self._function_filters():
            bp = self._stand_ins.get(f.filter)
            if f.filter in on and bp is None:
                self._stand_ins[f.filter] = self.new("line", temporary=True, file=f.place[0], line=f.place[1],
                                                     exception=f.filter) if f.place else \
                    self.new("function", temporary=True, function=f.function, exception=f.filter)
                changed.add(f.place[0] if f.place else None)
            elif f.filter not in on and bp is not None:
                self.discard(self._stand_ins.pop(f.filter))
                changed.add(f.place[0] if f.place else None)
        for file in changed:  # None: the function breakpoints
            await (self._sync_functions(request) if file is None else self._sync_file(request, file))
        for bp in self._items.values():
            if bp.kind == "exception" and (stand_in := self._stand_ins.get(bp.exception or "")) is not None:
                bp.verified, bp.message = stand_in.verified, stand_in.message

    def take_stand_ins(self) -> list[Breakpoint]:
        """The function filters' breakpoints, taken out of the registry for good (the program is to run its way
        out)."""
        taken, self._stand_ins, self._filters_silenced = list(self._stand_ins.values()), {}, True
        return [self._items.pop(bp.id) for bp in taken if bp.id in self._items]

    def _apply(self, bps: list[Breakpoint], answers: list[bodies.Breakpoint]) -> None:
        for bp, answer in zip(bps, answers, strict=False):
            bp.verified = answer.verified
            bp.message = self._message(answer, None)
            bp.adapter_id = answer.id
            bp.actual_line = answer.line or bp.actual_line
            if self._profile.breakpoints.refused_condition_kept and bp.kind == "line" and bp.options.condition \
                    and bp.message and not bp.verified:
                bp.verified, bp.adapter_id = True, -bp.id  # an id of our own: its stops are matched by place
                bp.message = (f"{self._profile.name} refused the condition ({bp.message.rstrip('.')}) and keeps the "
                              f"breakpoint without it, so it stops at every hit; fix the condition with `breakpoint` "
                              f"and id {bp.id}")

    def _message(self, answer: bodies.Breakpoint, before: str | None) -> str | None:
        """The adapter's message on a breakpoint (`before` where it sends none), unless it only says that the
        breakpoint is not bound yet."""
        message = answer.message if "message" in answer.model_fields_set else before
        return None if message in self._profile.breakpoints.unbound_messages else message

    def on_event(self, answer: bodies.Breakpoint) -> None:
        """A `breakpoint` event's breakpoint: the adapter verified, moved or dropped one of ours. It may say only
        what changed (`model_fields_set`)."""
        if answer.id is None:
            return
        for bp in self._items.values():
            if bp.adapter_id == answer.id:
                bp.verified = answer.verified if "verified" in answer.model_fields_set else bp.verified
                bp.message = self._message(answer, bp.message)
                bp.actual_line = answer.line or bp.actual_line

    def _dap_form(self, bp: Breakpoint) -> dict[str, Any]:
        """`bp` for the adapter (`dap_form`), its condition as the agent gave it remembered where another is sent."""
        place = self._function_places.get(bp.function or "") if bp.kind == "function" else None
        form = dap_form(bp, self._profile, place=place, tag=self._tag.format(bp.id))
        given = bp.options.condition
        if form.get("condition", given) != given:
            self._given_conditions[form["condition"]] = given or ""
        return form
