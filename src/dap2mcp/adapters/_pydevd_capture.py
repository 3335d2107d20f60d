"""Runs inside a debugpy debuggee, sent as the text of one `evaluate` request.

debugpy answers `variables` requests one at a time on the stopped thread, so a deep snapshot
made of hundreds of them is slow however many are in flight. This expands the same variables
with pydevd's own resolvers and reprs (so names, types and values match its `variables`
replies) and returns them in one reply, shaped like those replies: children keyed by a
reference that is the same for the same object, as pydevd's references are.

It must stay importable on its own: it reaches pydevd only inside `capture`.
"""

import json

FIRST_REFERENCE = 2**31  # above any reference the adapter hands out (dap2mcp's capture knows this too)
MAX_REPLY = 8 * 1024 * 1024  # debugpy's adapter drops messages over 16 MiB, and the session with them


def capture(namespace, names, depth, max_children, max_nodes, value_chars, callables=()):
    from _pydevd_bundle.pydevd_constants import GENERATED_LEN_ATTR_NAME
    from _pydevd_bundle.pydevd_resolver import get_var_scope, sorted_attributes_key
    from _pydevd_bundle.pydevd_safe_repr import SafeRepr
    from _pydevd_bundle.pydevd_xml import get_type, get_variable_details
    from pydevd import get_global_debugger

    presentation = get_global_debugger().variable_presentation.get_presentation
    to_string = SafeRepr()  # holds only its settings, so one serves every value
    references = {}
    alive = []  # holds every object referenced, so no id is reused while this runs
    children = {}
    budget = max_nodes - len(names)
    methods = frozenset(callables)  # attributes of these types are the class's, not the object's state

    def reference(value):
        key = id(value)
        if key not in references:
            references[key] = FIRST_REFERENCE + len(references)
            alive.append(value)
        return references[key]

    def describe(name, value):
        type_name, _, _, resolver, shown = get_variable_details(value, to_string=to_string)
        ref = reference(value) if resolver is not None else 0
        # one character past what dap2mcp keeps, so it still knows the value was cut
        return {"name": name, "type": type_name, "value": shown[: value_chars + 1],
                "variablesReference": ref}, (value, resolver)

    def entries(value, resolver):
        if hasattr(resolver, "get_contents_debug_adapter_protocol"):
            listed = resolver.get_contents_debug_adapter_protocol(value, fmt=None)
        else:
            items = sorted(resolver.get_dictionary(value).items(), key=lambda item: sorted_attributes_key(item[0]))
            listed = [(key, child, None) for key, child in items]
        kept = []
        for name, child, evaluate_name in listed:
            scope = get_var_scope(name, child, evaluate_name, False)
            if (scope and presentation(scope) != "inline") or name == GENERATED_LEN_ATTR_NAME:
                continue  # pydevd groups these apart or computes them: not the object's own state
            if type(child).__name__ in methods and str(name).isidentifier():
                continue  # as dap2mcp's `is_method` leaves out
            kept.append((str(name), child))
            if len(kept) > max_children:
                break
        return kept

    roots = {}
    level = []
    for name in names:
        if name in namespace:  # its description came with the frame's variables: no second repr
            value = namespace[name]
            resolver = get_type(value)[2]
            if resolver is not None:
                roots[name] = reference(value)
                level.append((roots[name], (value, resolver)))
    for _ in range(depth):
        following = []
        for ref, (value, resolver) in level:
            if ref in children or budget <= 0:
                continue
            described = [describe(name, child) for name, child in entries(value, resolver)[:budget]]
            budget -= len(described)
            children[ref] = [d for d, _ in described]
            following.extend((d["variablesReference"], held) for d, held in described if d["variablesReference"])
        level = following
    reply = json.dumps({"roots": roots, "children": children})
    if len(reply) > MAX_REPLY:
        return json.dumps({"tooLarge": len(reply)})
    return reply
