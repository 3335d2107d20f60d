"""Setting a variable: by name in the frame's scopes, by expression where the adapter takes one, or
field by field along a path (`stats.sum`, `items[2]`, `s->ticks`, `root.Balance` through a pointer)
where it does not, as lldb-dap 19; what no scope reaches (a global gdb lists nowhere, `*p`, `xs[i]`) by
evaluating an assignment, where the profile says that is safe (`assignment`).

Every answer is the value as the adapter now shows it, bounded like an evaluation's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ...dap import AdapterRefused, bodies
from ...errors import DebugError, ErrorCode, Failure
from .inspect import clip, unexpanded

if TYPE_CHECKING:
    from ..session import DebugSession

_STEP = re.compile(r"(?:\.|->)([A-Za-z_$][\w$]*)|(\[[^\]]+\])")
"""One step of a path after its first name: `.field`, C's `->field`, or `[index]` (children the adapter
names `[2]`)."""
_DEREFERENCED = re.compile(r"\(\*([A-Za-z_$][\w$]*)\)")
"""`(*s)` at the start of a path: the pointer's children are the pointee's, so it is the path `s`."""


def value_of(value: str, body: dict[str, Any], session: DebugSession) -> dict[str, Any]:
    limit = session.limits.value_chars * 4
    kind = str(body.get("type") or "")
    out: dict[str, Any] = {"value": value[:limit], "type": clip(kind, limit)[0] if kind else None}
    if len(value) > limit:
        out["truncated"] = True
    if body.get("variablesReference"):
        out["variablesReference"] = body["variablesReference"]
    return out


async def set_variable(session: DebugSession, name: str, value: str, frame: int) -> dict[str, Any]:
    caps = session.capabilities
    path = _path(name)
    if len(path) > 1 and caps.get("supportsSetExpression"):
        return {"name": name, **await _set_expression(session, name, value, frame)}
    if not (caps.get("supportsSetVariable") or caps.get("supportsSetExpression")):
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{session.profile.name} cannot set variables: `evaluate` an "
                         "assignment in the program's language instead, where the adapter runs code (`x = 5`)")
    scopes = [s for s in (await session.request("scopes", {"frameId": frame})).scopes if not unexpanded(s)]
    for scope in scopes:
        found = (await _member(session, scope.variablesReference, path[0]))[1]
        if found is None:
            continue
        if len(path) == 1 and caps.get("supportsSetExpression"):  # reports a bad value, where debugpy's setVariable ignores it
            target = name if scope is scopes[0] else _scope_target(session, scope, name)
            return {"name": name, "scope": scope.name, **await _set_expression(session, target, value, frame)}
        if not caps.get("supportsSetVariable"):
            break
        holder = scope.variablesReference
        for done, step in enumerate(path[1:], 1):
            reference = found.variablesReference
            holder, found = await _member(session, reference, step) if reference else (0, None)
            if found is None:
                if session.profile.evaluation.assignment and step.startswith("["):  # an index not listed (computed, past a page)
                    return {"name": name, **await _assign(session, name, value, frame)}
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"'{_joined(path[:done])}' has no "
                                 f"{'element' if step.startswith('[') else 'field'} '{step}' (frame {frame})")
        try:
            body = await session.request("setVariable", {"variablesReference": holder, "name": path[-1], "value": value})
        except Failure as exc:
            if isinstance(exc, AdapterRefused) and session.profile.evaluation.assignment and not (found and found.variablesReference):
                # lldb-dap refuses what lldb's own expressions take (an enum's enumerator name), without a reason:
                # the debugger assigns, or says why it cannot
                return {"name": name, "scope": scope.name, **await _assign(session, name, value, frame)}
            if not isinstance(exc, AdapterRefused) or found is None or not found.variablesReference:
                raise
            raise DebugError(ErrorCode.ADAPTER_ERROR, f"{exc.message}: '{name}' ({found.type or 'a value'}) "
                             "has fields or elements, which the adapter may not set as a whole; set one of them "
                             f"('{name}.field', '{name}[0]')") from exc
        return {"name": name, "scope": scope.name,
                **value_of(body.get("value", body.get("result", "")), body, session)}  # lldb-dap 19: result
    if session.profile.evaluation.assignment:
        return {"name": name, **await _assign(session, name, value, frame, unlisted=path[0])}
    if path == [name] and not caps.get("supportsSetExpression") and not re.fullmatch(r"[A-Za-z_$][\w$]*", name):
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"{session.profile.name} sets a variable, or a field or element "
                         f"of one by its path (`a.b`, `a[2]`, through pointers), not an expression like '{name[:100]}': "
                         "name what it reaches by such a path")
    raise DebugError(ErrorCode.INVALID_ARGUMENT, f"no variable named '{path[0]}' in frame {frame}")


def _scope_target(session: DebugSession, scope: bodies.Scope, name: str) -> str:
    """How to name a variable of an outer scope (a Python global) in an assignment run in the frame:
    where the adapter's language binds a bare name locally, the profile says (`scope_assignments`)."""
    template = dict(session.profile.evaluation.scope_assignments).get(scope.name)
    return template.format(name=name) if template is not None else name


def _path(name: str) -> list[str]:
    """`stats.sum` as ["stats", "sum"], `items[2].qty` as ["items", "[2]", "qty"], `s->ticks` and
    `(*s).ticks` as ["s", "ticks"]; a name that is not such a path is one step, looked up as it is."""
    head = _DEREFERENCED.match(name) or re.match(r"[A-Za-z_$][\w$]*", name)
    if head is None:
        return [name]
    steps, at = [head.group(1) if head.re is _DEREFERENCED else head.group(0)], head.end()
    while at < len(name):
        step = _STEP.match(name, at)
        if step is None:
            return [name]
        steps.append(step.group(1) or step.group(2))
        at = step.end()
    return steps


def _joined(steps: list[str]) -> str:
    return steps[0] + "".join(step if step.startswith("[") else f".{step}" for step in steps[1:])


async def _member(session: DebugSession, reference: int, name: str) -> tuple[int, bodies.Variable | None]:
    """The child named `name` of the value at `reference`, and the reference that holds it (what
    `setVariable` takes). A pointer whose only child is its pointee, unnamed or `*p` (Delve), is stepped
    through: a field behind a pointer is named as the program names it (`root.Balance`)."""
    for _ in range(8):  # a pointer to a pointer to ...: bounded, a cycle of references ends
        children = (await session.request("variables", {"variablesReference": reference})).variables
        found = next((v for v in children if v.name == name), None)
        if found is not None:
            return reference, found
        if len(children) != 1 or not (children[0].name or "*").startswith("*"):
            return reference, None
        reference = children[0].variablesReference
        if not reference:
            return 0, None
    return 0, None


async def _assign(session: DebugSession, name: str, value: str, frame: int, unlisted: str | None = None) -> dict[str, Any]:
    """`name = value` evaluated in the frame, as the profile spells an assignment: the debugger itself assigns.
    `unlisted`: the path's first name, which no scope lists: where the assignment fails, it is told apart
    whether that name is unknown (the agent's mistake) or the debugger refused the assignment."""
    template = session.profile.evaluation.assignment
    assert template is not None
    expression = template.format(target=name, value=value)
    try:
        body = await _evaluated(session, expression, frame)
    except AdapterRefused as exc:
        if unlisted is not None:
            try:
                await _evaluated(session, unlisted, frame)
            except AdapterRefused as unknown:
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"no variable named '{unlisted}' in frame {frame} "
                                 f"({session.profile.name}: {unknown.message.strip()})") from exc
        raise DebugError(ErrorCode.ADAPTER_ERROR, f"{session.profile.name} could not assign '{name}' "
                         f"({expression!r}): {exc.message.strip()}") from exc
    return value_of(str(body.get("result", "")), body, session)


async def _evaluated(session: DebugSession, expression: str, frame: int) -> dict[str, Any]:
    """An evaluation's answer; a result the adapter gives for an expression it could not evaluate is its error."""
    body = await session.request("evaluate", {"expression": expression, "frameId": frame,
                                               "context": session.profile.evaluation.evaluate_context})
    if body.get("result") in session.profile.evaluation.failed_evaluations:  # gdb's refusal, written as a result
        raise AdapterRefused("evaluate", f"{body['result']} (an unknown name, a value of another type, "
                             "or not an expression)")
    return body


async def _set_expression(session: DebugSession, name: str, value: str, frame: int) -> dict[str, Any]:
    try:
        body = await session.request("setExpression", {"expression": name, "value": value, "frameId": frame})
    except Failure as exc:
        if isinstance(exc, AdapterRefused) and (why := await _why_not_set(session, name, value, frame)):
            raise DebugError(ErrorCode.ADAPTER_ERROR, f"{exc.message}: {why}") from exc
        raise
    return value_of(body.get("value", ""), body, session)


async def _why_not_set(session: DebugSession, name: str, value: str, frame: int) -> str | None:
    """What debugpy's "Error executing: x = (y)" leaves out. A value with calls is not run again (they would
    run twice): only the names it reads are looked up, each alone, which has no effect; one without is assigned
    once more as an expression, whose refusal names the exception (a frozen dataclass's field)."""
    try:
        names = session.profile.names_read(value)
    except SyntaxError as exc:
        return f"the value is not an expression ({exc.msg})"
    if names is None:
        return None
    for read in names:
        if (refused := (await session.own.evaluate(read, frame))[1]) is not None:
            return refused
    again = session.profile.assignment_again(name, value)
    if again is not None and (refused := (await session.own.evaluate(again, frame))[1]) is not None:
        return f"assigning it raised {_last_line(refused)}"
    return "the names it reads are defined, so computing the value or assigning it raised; `evaluate` the " \
           "assignment to see the exception"


def _last_line(said: str) -> str:
    """The exception's own line of a traceback an adapter answered with (`FrozenInstanceError: cannot ...`)."""
    lines = [line.strip() for line in said.strip().splitlines() if line.strip()]
    return lines[-1] if lines else said
