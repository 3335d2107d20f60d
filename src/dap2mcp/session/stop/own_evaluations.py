"""Evaluations dap2mcp makes for itself, not for the agent: a check before a step, the debuggee's limit on
how long an evaluation may run, a debugger command whose text goes to the adapter's console, the locals an
adapter would not list. A refusal is an answer here (the check could not tell, the name is unknown); a
session gone or timed out still fails the call."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any

from ...dap import AdapterRefused, bodies

if TYPE_CHECKING:
    from ...adapters import AdapterProfile
    from ..models import Output
    from ..output.buffer import OutputBuffer
    from .inspect import Requester, Variables, ViewScope

log = logging.getLogger(__name__)

_PRINTED = re.compile(r"^([A-Za-z_]\w*) = (.*)$")
"""A line of gdb's `info locals`: a name, and its value as gdb prints it."""
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
"""A variable's name that reads it when evaluated."""


class OwnEvaluations:
    def __init__(self, profile: AdapterProfile, adapter: Requester, console: OutputBuffer) -> None:
        """`adapter`: the session, whose answers are shaped; `console`: where the adapter's own words go."""
        self._profile = profile
        self._adapter = adapter
        self._console = console
        self._limit: float | None = None
        """How long the debugger was last told to let an evaluation run (see `limit`)."""

    async def evaluate(self, expression: str, frame_id: int, context: str | None = None,
                       timeout: float = 10.0) -> tuple[dict[str, Any], str | None]:
        """The adapter's answer and None, or `{}` and its reason where the adapter refused the expression."""
        try:
            return await self._adapter.request("evaluate", {"expression": expression, "frameId": frame_id,
                                                            "context": context or self._profile.evaluation.evaluate_context},
                                               timeout), None
        except AdapterRefused as exc:
            return {}, exc.message

    async def limit(self, frame_id: int, seconds: float) -> bool:
        """Have the debugger interrupt an evaluation that runs past `seconds`, where it can (the profile's
        `evaluation_limit`); False where it cannot. The setting stays in the debuggee: it is sent again only
        when it changes."""
        statement = self._profile.evaluation.evaluation_limit
        if statement is None:
            return False
        if self._limit != seconds:
            _, refused = await self.evaluate(statement.format(seconds=float(seconds)), frame_id)
            if refused is not None:
                log.info("cannot limit evaluations: %s", refused)
                return False
            self._limit = seconds
        return True

    async def console_text(self, command: str, frame_id: int, limit: int) -> Output:
        """What a debugger command (`console_prefix`) printed on the adapter's console, where it goes
        (cdt-gdb-adapter answers the command itself with a line end only)."""
        start = self._console.size
        await self._adapter.request("evaluate", {"expression": command, "frameId": frame_id, "context": "repl"})
        await self._console.quiet(0.05, 0.5)
        return self._console.take_from(start, limit)

    async def reread(self, frame_id: int, scopes: list[ViewScope], variables: Variables) -> None:
        """Read again, by name in the frame, the values of the frame's listed `variables` (by scope reference, the
        adapter's, changed in place), where the adapter lists copies taken at the stop
        (`AdapterProfile.evaluation.scopes_copied_at_stop`) and the program's state may have changed since. A name listed by
        two scopes is read for the first (innermost) only, which is the one a name in the frame means; a
        variable that is not a plain name (js-debug's `Return value`), `this` (no assignment changes it; evaluated,
        it reads longer than listed), or whose reading is refused, stays as listed."""
        seen: set[str] = set()
        stale: list[bodies.Variable] = []
        for scope in scopes:
            for variable in variables.get(scope.reference, ()):
                name = variable.name
                if name not in seen and variable.evaluateName == name and _NAME.fullmatch(name) and name != "this":
                    stale.append(variable)
                seen.add(name)
        # context `variables`: the value written as the listing writes it (js-debug's `watch` escapes a function's
        # line ends), so a value nothing changed reads the same
        answers = await asyncio.gather(*(self.evaluate(v.name, frame_id, "variables") for v in stale))
        for variable, (body, refused) in zip(stale, answers, strict=True):
            if refused is None and "result" in body:  # an evaluate answer: a dict, not read into a type
                variable.value, variable.variablesReference = str(body["result"]), body.get("variablesReference") or 0
                if body.get("type"):
                    variable.type = str(body["type"])

    async def unlisted_variables(self, frame_id: int, why: str) -> list[bodies.Variable] | None:
        """A scope the adapter would not list (`why`), read through the debugger's own commands where the profile
        has them (`list_commands`): their names, and each one's value as `evaluate` gives it. None if not."""
        profile = self._profile
        if profile.evaluation.unlisted_scope is None or not profile.evaluation.unlisted_scope.search(why):
            return None
        printed: dict[str, str] = {}  # gdb's text of each value: `{5, 0}` where `evaluate` says `[2]`
        for command in profile.console.list_commands:
            name = None
            for line in (await self.console_text(command, frame_id, 100_000)).text.splitlines():
                if found := _PRINTED.match(line):
                    name = found.group(1)
                    printed.setdefault(name, found.group(2))
                elif name is not None and line.strip():  # a value printed over several lines
                    printed[name] += " " + line.strip()
        variables = []
        for name, value in printed.items():
            body, refused = await self.evaluate(name, frame_id)
            if refused is None and body.get("result") not in profile.evaluation.failed_evaluations:
                variables.append(bodies.Variable.read({"name": name, "value": value, "type": body.get("type"),
                                                       "variablesReference": body.get("variablesReference") or 0}))
        return variables or None
