"""The typed DAP bodies (`dap/bodies.py`) against the DAP schema in tests/spec, and against bodies real adapters
send: the recorded transcripts read on the schema's fast path, and the odd values seen from lldb-dap, Delve,
cdt-gdb-adapter, debugpy and js-debug read without a failure, as the dict reads they replace would have."""

from __future__ import annotations

import json
import types
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from dap2mcp.dap import bodies
from dap2mcp.session.stop.capture import prefetched

ROOT = Path(__file__).resolve().parents[2]
DEFINITIONS: dict[str, Any] = json.loads((ROOT / "tests" / "spec" / "debugAdapterProtocol.json").read_text())["definitions"]
MODELS = [model for model in vars(bodies).values()
          if isinstance(model, type) and issubclass(model, bodies.Body) and model is not bodies.Body]
BY_DEFINITION = {name: model for model in MODELS for name in model.SPEC}
JSON_TYPES = {str: "string", int: "integer", bool: "boolean", float: "number"}


def _object(definition: str) -> dict[str, Any]:
    """The schema of an object, or of the body of an event or a response."""
    schema = DEFINITIONS[definition]
    if "allOf" in schema:  # an event or a response: its body
        return schema["allOf"][1]["properties"]["body"]
    return schema


def _schema_types(prop: dict[str, Any]) -> set[str]:
    """What a property may hold, as names: JSON types, a definition's name, `array of X`."""
    if "$ref" in prop:
        name = prop["$ref"].rsplit("/", 1)[-1]
        return {name} if DEFINITIONS[name].get("type") == "object" else _schema_types(DEFINITIONS[name])
    kinds = prop["type"] if isinstance(prop["type"], list) else [prop["type"]]
    if kinds == ["array"]:
        return {f"array of {item}" for item in _schema_types(prop["items"])}
    return set(kinds)


def _model_types(annotation: Any) -> set[str]:
    """What a field may hold, named as `_schema_types` names it; None left out (optional fields default to it)."""
    if annotation is Any:
        return {"array", "boolean", "integer", "null", "number", "object", "string"}
    if typing.get_origin(annotation) in (types.UnionType, typing.Union):
        return set().union(*(_model_types(a) for a in typing.get_args(annotation) if a is not type(None)))
    if typing.get_origin(annotation) is list:
        return {f"array of {item}" for item in _model_types(typing.get_args(annotation)[0])}
    if isinstance(annotation, type) and issubclass(annotation, bodies.Body):
        return {annotation.SPEC[0]}
    return {JSON_TYPES[annotation]}


def test_every_model_stands_for_a_definition_of_the_schema() -> None:
    assert MODELS and all(model.SPEC for model in MODELS)
    for model in MODELS:
        for name in model.SPEC:
            assert name in DEFINITIONS, f"{model.__name__}: no {name} in the DAP schema"


@pytest.mark.parametrize("definition", sorted(BY_DEFINITION))
def test_the_fields_are_the_schemas_own(definition: str) -> None:
    """Each field under the schema's name, required where the schema requires it, of the schema's type; and no
    property of the schema left out."""
    model, schema = BY_DEFINITION[definition], _object(definition)
    properties, required = schema.get("properties", {}), set(schema.get("required", []))
    fields = model.model_fields
    assert set(fields) == set(properties), f"{model.__name__} against {definition}"
    assert {name for name, field in fields.items() if field.is_required()} == required, definition
    for name, field in fields.items():
        assert _model_types(field.annotation) == _schema_types(properties[name]), f"{definition}.{name}"
        if name not in required:
            assert field.default is None, f"{definition}.{name}: optional, so absent reads as None"


def test_each_typed_command_and_event_has_its_definitions_model() -> None:
    for command, model in bodies.RESPONSES.items():
        assert f"{command[:1].upper()}{command[1:]}Response" in model.SPEC
    for event, model in bodies.EVENTS.items():
        assert f"{event[:1].upper()}{event[1:]}Event" in model.SPEC


def _transcript_bodies() -> list[tuple[str, str, type[bodies.Body], Any]]:
    """Every body in tests/transcripts that a model stands for: (transcript, command or event, model, body)."""
    found = []
    for path in sorted((ROOT / "tests" / "transcripts").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            message = json.loads(line)["message"]
            if message.get("type") == "response" and message.get("success"):
                what, kind = message["command"], "Response"
            elif message.get("type") == "event":
                what, kind = message["event"], "Event"
            else:
                continue
            if (model := BY_DEFINITION.get(f"{what[:1].upper()}{what[1:]}{kind}")) is not None:
                found.append((path.stem, what, model, message.get("body") or {}))
    return found


def test_what_real_adapters_sent_reads_on_the_schemas_fast_path() -> None:
    """lldb-dap, cdt-gdb-adapter, Delve and debugpy, as recorded: every body fits its model without mending."""
    found = _transcript_bodies()
    assert {name.split("-")[0] for name, _, _, _ in found} == {"debugpy", "delve", "gdb", "lldb"}
    assert {what for _, what, _, _ in found} >= {"stopped", "output", "stackTrace", "scopes", "variables", "threads"}
    for name, what, model, body in found:
        try:
            model.model_validate(body)  # what `read` tries first
        except ValidationError as exc:
            pytest.fail(f"{name}: the {what} body would be mended: {exc}")


def test_only_the_typed_answers_and_events_are_read_into_types() -> None:
    body = {"result": "3", "variablesReference": 0}
    assert bodies.response("evaluate", body) is body
    assert bodies.event("module", body) is body
    for command, model in bodies.RESPONSES.items():
        assert isinstance(bodies.response(command, {}), model)
    for name, model in bodies.EVENTS.items():
        assert isinstance(bodies.event(name, {}), model)


# -- what adapters send that the specification does not allow, or leaves open ---------------------


def test_cdt_gdb_adapter_s_nulls_read_as_absent() -> None:
    """A `generic` stop after the program's end names thread `null`; a breakpoint event, breakpoint id `null`."""
    stop = bodies.StoppedBody.read({"reason": "generic", "allThreadsStopped": False, "threadId": None})
    assert stop.threadId is None and stop.reason == "generic"
    changed = bodies.BreakpointEventBody.read({"reason": "changed", "breakpoint": {"id": None, "verified": True}})
    assert changed.breakpoint.id is None and changed.breakpoint.verified


def test_js_debug_s_own_frame_hint_is_kept() -> None:
    frame = bodies.StackFrame.read({"id": 0, "name": "<anonymous>", "line": 1, "column": 1,
                                    "presentationHint": "deemphasize", "source": {"path": "/p/a.js", "sourceReference": 0}})
    assert frame.presentationHint == "deemphasize" and frame.path == "/p/a.js"


def test_lldb_dap_s_column_0_and_delve_s_thread_minus_1() -> None:
    assert bodies.StackFrame.read({"id": 1, "name": "main", "line": 0, "column": 0}).column == 0
    assert bodies.Thread.read({"id": -1, "name": "Dummy"}).id == -1
    assert bodies.StoppedBody.read({"reason": "pause"}).threadId is None  # Delve names no thread after a pause


def test_fields_outside_the_specification_are_kept() -> None:
    """lldb-dap's `$__lldb_extensions` and `id` on variables, cdt-gdb-adapter's `running` on threads."""
    variable = bodies.Variable.read({"name": "p", "value": "0x10", "variablesReference": 3, "id": 7,
                                     "$__lldb_extensions": {"error": "no value"}})
    assert variable.model_extra == {"id": 7, "$__lldb_extensions": {"error": "no value"}}
    assert bodies.Thread.read({"id": 1, "name": "main", "running": False}).model_extra == {"running": False}


def test_debugpy_s_empty_answer_to_set_exception_breakpoints() -> None:
    assert bodies.ExceptionBreakpointsBody.read({}).breakpoints is None


def test_a_required_field_left_out_is_its_types_empty_value_and_not_given() -> None:
    """What `.get("name", "")` made of it; `model_fields_set` still tells it was not sent."""
    frame = bodies.StackFrame.read({"id": 4, "name": "f"})
    assert (frame.line, frame.column, frame.source) == (0, 0, None)
    assert frame.model_fields_set == {"id", "name"}
    scope = bodies.Scope.read({"name": "Locals", "variablesReference": 5})
    assert scope.expensive is False
    answer = bodies.BreakpointEventBody.read({"reason": "changed", "breakpoint": {"id": 2, "line": 9}}).breakpoint
    assert answer.verified is False and "verified" not in answer.model_fields_set and answer.line == 9


def test_a_value_of_the_wrong_type_is_dropped_where_it_stands() -> None:
    stack = bodies.StackTraceBody.read({"stackFrames": [
        {"id": 1, "name": "a", "line": 3, "column": 1, "source": "/p/a.c"},  # a source that is no object
        {"id": "2", "name": 7, "line": None, "column": 1, "source": {"path": "/p/b.c", "sources": [None]}},
    ], "totalFrames": "many"})
    first, second = stack.stackFrames
    assert first.source is None and first.line == 3
    assert (second.id, second.name, second.line, second.path) == (2, "7", 0, "/p/b.c")  # as int() and str() read them
    assert stack.totalFrames is None
    stop = bodies.StoppedBody.read({"reason": "breakpoint", "threadId": 1, "hitBreakpointIds": [1, "two"],
                                    "preserveFocusHint": "sometimes"})
    assert stop.hitBreakpointIds is None and stop.preserveFocusHint is None and stop.threadId == 1


def test_a_list_item_that_is_no_object_keeps_its_place() -> None:
    """Breakpoints are answered in the order sent: the second answer stays the second breakpoint's."""
    answer = bodies.BreakpointsBody.read({"breakpoints": [None, {"verified": True, "id": 5}]})
    assert [(bp.verified, bp.id) for bp in answer.breakpoints] == [(False, None), (True, 5)]


def test_a_body_that_is_no_object_reads_as_an_empty_one() -> None:
    assert bodies.VariablesBody.read(None).variables == []
    assert bodies.ThreadsBody.read([1, 2]).threads == []
    assert bodies.OutputBody.read("text").output == ""


def test_the_capture_helpers_reply_is_read_as_leniently_as_the_adapters_own() -> None:
    """debugpy's capture helper (`adapters/_pydevd_capture.py`) answers many `variables` replies in one: read in one
    call where they fit, else each as an adapter's reply is."""
    top = [bodies.Variable(name="items", value="[1, None]", variablesReference=5)]
    reply = {"roots": {"items": 2**31}, "children": {str(2**31): [
        {"name": "0", "value": "1", "type": "int", "variablesReference": 0}]}}
    swapped, children = prefetched(json.dumps(reply), top)
    assert swapped[0].variablesReference == 2**31 and top[0].variablesReference == 5
    assert [(v.name, v.value, v.type) for v in children[2**31]] == [("0", "1", "int")]
    reply["children"][str(2**31)].append({"name": "1", "value": None, "type": "NoneType", "variablesReference": 0})
    _, children = prefetched(json.dumps(reply), top)
    assert [(v.name, v.value) for v in children[2**31]] == [("0", "1"), ("1", "")]


def _json(keys: list[str]) -> st.SearchStrategy[Any]:
    scalars = st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False) | st.text(max_size=5)
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(keys) | st.text(max_size=3), inner, max_size=4), max_leaves=12)


ALL_FIELDS = sorted({name for model in MODELS for name in model.model_fields})


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model.__name__)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_nothing_an_adapter_sends_fails_to_read(model: type[bodies.Body], data: st.DataObject) -> None:
    raw = data.draw(st.dictionaries(st.sampled_from(ALL_FIELDS), _json(ALL_FIELDS), max_size=8) | _json(ALL_FIELDS))
    read = model.read(raw)
    assert isinstance(read, model)
    for name, field in model.model_fields.items():  # each field holds what its type allows
        value = getattr(read, name)
        assert value is None and not field.is_required() or _holds(field.annotation, value), (name, value)


def _holds(annotation: Any, value: Any) -> bool:
    if annotation is Any:
        return True
    if typing.get_origin(annotation) in (types.UnionType, typing.Union):
        return any(_holds(a, value) for a in typing.get_args(annotation))
    if typing.get_origin(annotation) is list:
        return isinstance(value, list) and all(_holds(typing.get_args(annotation)[0], item) for item in value)
    if annotation is type(None):
        return value is None
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, annotation)
