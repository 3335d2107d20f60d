"""Runs inside lldb-dap's Python, imported after the Rust toolchain's formatters (`lldb_lookup.py`).

It installs `_lldb_rust_views` (the values those formatters show wrongly or not at all), and mends two faults of
theirs under lldb 19, in place:

- lldb 19 keeps only 32 bits of a variant's discriminant in the variant's name (`$variant$0` for
  rustc's 0x8000000000000000, the niche of a `Result<u32, String>`), so the toolchain's enum provider
  matched no variant and showed the default one: `Ok(12)` read as `Err("")`. A variant now matches
  on the low 32 bits of the discriminant it holds.
- The formatters walk what they read: a `HashMap`'s every bucket, a `String`'s every byte. On memory
  that is not (yet) the value (a variable before its `let`, a variant misread) or on a very large value,
  that walk goes on for minutes, and lldb-dap, which answers one request at a time, answers nothing
  else meanwhile. Each formatter call now has `BUDGET` seconds; past it the call is interrupted and
  the value reads as unreadable (its summary says so, it has no children), and lldb-dap goes on. The budget
  covers `_lldb_rust_views` too.

It must stay importable on its own and touches nothing but the toolchain's formatter modules and ours.
"""

import ctypes
import functools
import os
import sys
import threading
import time

BUDGET = 1.0
"""Seconds a formatter may take for one value; the toolchain's take milliseconds for real values."""
UNREADABLE = f"<unreadable: lldb's Rust formatter ran past {BUDGET:g} s on it (too large, or memory not yet this value)>"
TICK = 0.05
GIVE_UP = 5.0
"""Seconds past the budget after which a call is no longer interrupted (it ignores the interruptions)."""


class FormatterTimeout(BaseException):
    """Raised inside a formatter call that has run past its budget (not an `Exception`: the formatters'
    own `except Exception` would swallow it)."""


_lock = threading.Lock()
_deadlines = {}  # thread id -> the deadline of the outermost formatter call running on it
_timed_out = set()  # (stop id, address, type name) of values whose formatting ran out of time at that stop
_watchdog = None


def _watch():
    while True:
        time.sleep(TICK)
        now = time.monotonic()
        with _lock:
            for ident, deadline in list(_deadlines.items()):
                if now > deadline + GIVE_UP:
                    del _deadlines[ident]
                    _interrupt(ident, None)
                elif now > deadline:  # again at each tick: lldb takes one raised in a nested formatter as its failure
                    _interrupt(ident, FormatterTimeout)


def _interrupt(ident, exception):
    """Raise `exception` in thread `ident` at its next bytecode (None: take back one not raised yet)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(exception) if exception else None)


def _leave(ident):
    """The outermost call on `ident` is over: no more interruptions, and none left pending."""
    while True:
        try:
            with _lock:
                _deadlines.pop(ident, None)
                _interrupt(ident, None)
            return
        except FormatterTimeout:  # raised on the way in: the deadline is still registered, so again
            continue


def _key(valobj):
    try:
        return (valobj.GetProcess().GetStopID(), valobj.GetLoadAddress(), valobj.GetTypeName())
    except Exception:
        return None


def _bounded(function, fallback, valobj_of):
    """`function`, interrupted past the budget: then `fallback(*args)` stands for its result."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        me = threading.get_ident()
        with _lock:
            outer = me not in _deadlines
            if outer:
                _deadlines[me] = time.monotonic() + BUDGET
        try:
            return function(*args, **kwargs)
        except FormatterTimeout:
            if not outer:
                raise
            key = _key(valobj_of(args))
            if key is not None:
                _timed_out.add(key)
            return fallback(*args)
        finally:
            if outer:
                _leave(me)

    return call


def _summary(function):
    bounded = _bounded(function, lambda *args: UNREADABLE, lambda args: args[0])

    @functools.wraps(function)
    def call(valobj, *rest):
        if _key(valobj) in _timed_out:
            return UNREADABLE  # its children ran out of time: "size=0" would be a lie
        return bounded(valobj, *rest)

    return call


_given_up = set()
"""id() of the providers whose reading ran out of time (some have `__slots__`); an object that takes one of
these ids over is taken off at its `__init__`."""


def _gave_up(self, *args):
    _given_up.add(id(self))


_SYNTHETIC_FALLBACKS = {
    "__init__": _gave_up, "update": _gave_up,
    "num_children": lambda self, *args: 0, "has_children": lambda self, *args: False,
    "get_child_at_index": lambda self, *args: None, "get_child_index": lambda self, *args: -1,
}


def _provider_value(args):
    value = getattr(args[0], "valobj", None)
    return value if value is not None or len(args) < 2 else args[1]


def _synthetic(name, method):
    bounded = _bounded(method, _SYNTHETIC_FALLBACKS[name], _provider_value)

    @functools.wraps(method)
    def call(self, *args, **kwargs):  # the toolchain makes a HashSet's provider with `show_values=False`
        if name in ("__init__", "update"):
            _given_up.discard(id(self))
        elif id(self) in _given_up:
            return _SYNTHETIC_FALLBACKS[name](self, *args)
        return bounded(self, *args, **kwargs)

    return call


def _variant_index(self, all_variants):
    """The toolchain's `_getCurrentVariantIndex`, comparing as many bits as lldb 19 keeps in the name."""
    default_index = 0
    for i in range(all_variants.GetNumChildren()):
        variant = all_variants.GetChildAtIndex(i)
        discr = variant.GetChildMemberWithName("$discr$")
        if discr.IsValid():
            value = discr.GetValueAsUnsigned()
            if variant.GetName() in (f"$variant${value}", f"$variant${value & 0xFFFFFFFF}"):
                return i
        else:
            default_index = i
    return default_index


def _mend(modules):
    providers = modules[0]
    if hasattr(providers, "ClangEncodedEnumProvider"):
        providers.ClangEncodedEnumProvider._getCurrentVariantIndex = _variant_index
    names = {module.__name__ for module in modules}
    for module in modules:
        for name, value in list(vars(module).items()):
            if getattr(value, "__module__", None) not in names:
                continue
            if isinstance(value, type):
                if getattr(value, "_dap2mcp_bounded", False):
                    continue
                for method in _SYNTHETIC_FALLBACKS:
                    if method in vars(value):
                        setattr(value, method, _synthetic(method, vars(value)[method]))
                value._dap2mcp_bounded = True
            elif callable(value) and (name.endswith(("SummaryProvider", "_summary")) or name == "summary_lookup") \
                    and not getattr(value, "_dap2mcp_bounded", False):
                wrapped = _summary(value)
                wrapped._dap2mcp_bounded = True
                setattr(module, name, wrapped)


def __lldb_init_module(debugger, internal_dict):
    global _watchdog
    providers, lookup = sys.modules.get("lldb_providers"), sys.modules.get("lldb_lookup")
    if providers is None or lookup is None:
        return
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    import _lldb_rust_views as views  # needs the toolchain's modules, loaded by now

    views.install(debugger, internal_dict)
    _mend((providers, lookup, views))
    if _watchdog is None:
        _watchdog = threading.Thread(target=_watch, name="dap2mcp-formatter-budget", daemon=True)
        _watchdog.start()
