"""Loaded into lldb-dap (`command script import`), not into dap2mcp: fixes for lldb 19's own formatters where
they misread the C++ library on this machine (GCC 12's libstdc++) or leave its vocabulary types' contents out.

- `std::unordered_map` and `unordered_set` read `size=0` with no elements whatever they held: lldb's formatter takes
  the element type from the container's allocator argument, and GCC 12 describes that allocator without its
  template arguments, so the type came back invalid and the count 0. The hash table inside (`_M_h`, a
  `std::_Hashtable<Key, Value, ...>`) names the element type as its second argument.
- `std::optional<T>` read ` Has Value=true ` and `std::variant` ` Active Type = int `, without the value; they read
  `42` (`nullopt` when empty) and `7 (int)`. An optional's value is its only child, `value`, which `*opt`,
  `opt.value()` and `opt.value` reach by lldb's variable paths (lldb-dap tries those before its expression
  parser, which could not call an inlined `value()`, and which lldb 19 crashes in on any expression that lays out
  GCC 12's `std::string`). It is read from the optional's memory, so `set-variable opt.value` writes it.
- A `char *` to memory the program cannot read (`(char *)0x10`, a freed page) read `""`, like an empty string; it
  reads `<unreadable: cannot read memory at 0x10>`, as gdb says it. A readable one reads as lldb's own summary does.
- `std::unique_ptr`, `shared_ptr` and `weak_ptr` read as an address, `element_type @ 0x…` or the pointee's bare
  summary; they read the address and what it points to (`0x… {x: 1, y: 2}`), a shared one with its counts.
"""

import lldb  # type: ignore[import-not-found]
from lldb.formatters.cpp.gnu_libstdcpp import StdUnorderedMapSynthProvider  # type: ignore[import-not-found]

UNORDERED = "^std::unordered_(multi)?(map|set)<.+>$"
OPTIONAL = "^std::optional<.+>(( )?&)?$"
VARIANT = "^std::variant<.+>(( )?&)?$"
SMART = "^std::(unique_ptr|shared_ptr|weak_ptr)<.+>(( )?&)?$"
C_STRING = "^(const )?(unsigned |signed )?char( const)? ?[*]( const)?$"

STRING_BYTES = 1024
"""Bytes of a C string read for its summary at most, as lldb's own (`target.max-string-summary-length`)."""
_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\"": '\\"', "\\": "\\\\", "\a": "\\a", "\b": "\\b",
            "\f": "\\f", "\v": "\\v", "\x1b": "\\e"}

CHARS = 100
"""Characters of a contained or pointed-to value shown in its holder's summary at most."""
ITEMS = 8
"""Elements of a container shown after its count in a holder's summary (`size=3 [1, 2, 3]`)."""
DEPTH = 2
"""Holders whose summaries show their contents inside one another's (a list of nodes linked by `unique_ptr`, or a
cycle of `shared_ptr`s): deeper ones show only their address."""

VALUE_NAMES = ("value", "Value", "value()", "$$dereference$$")
"""What reaches an optional's value by a variable path: `opt.value`, lldb's own child name, `opt.value()`, `*opt`."""

_depth = [0]


class UnorderedSynth(StdUnorderedMapSynthProvider):  # type: ignore[misc]
    def extract_type(self):  # noqa: ANN201 - lldb's SBType
        found = super().extract_type()
        if found.IsValid():
            return found
        return self.valobj.GetChildMemberWithName("_M_h").GetType().GetTemplateArgumentType(1)


def text_of(value):  # noqa: ANN001, ANN201 - lldb's SBValue
    """A value as its holder's summary shows it: its summary (with a container's first elements), its value, or its
    fields one level deep (`{x: 1, y: 2, label: "u"}`); at most `CHARS` characters."""
    value.SetPreferSyntheticValue(True)
    summary, plain = value.GetSummary(), value.GetValue()
    if summary and plain:
        text = f"{plain} {summary}"  # a `char *`: its address and its text
    elif summary:
        text = summary
        count = value.GetNumChildren(ITEMS + 1)
        if count and value.GetChildAtIndex(0).GetName() == "[0]":
            items = [_shown(value.GetChildAtIndex(index)) for index in range(min(count, ITEMS))]
            text += " [" + ", ".join(items) + (", …]" if count > ITEMS else "]")
    elif plain:
        text = plain
    else:
        count = value.GetNumChildren(ITEMS + 1)
        parts = [f"{child.GetName()}: {_shown(child)}" for child in map(value.GetChildAtIndex, range(min(count, ITEMS)))]
        text = "{" + ", ".join(parts + (["…"] if count > ITEMS else [])) + "}"
    return text if len(text) <= CHARS else text[: CHARS - 1] + "…"


def _shown(child):  # noqa: ANN001, ANN202
    child.SetPreferSyntheticValue(True)
    return child.GetSummary() or child.GetValue() or ("{…}" if child.MightHaveChildren() else "{}")


def _held(function):  # noqa: ANN001, ANN202
    """A summary that shows another value's text, within `DEPTH` holders; and never an exception (lldb would show its
    traceback as the value)."""

    def summary(valobj, internal_dict):  # noqa: ANN001, ANN202
        _depth[0] += 1
        try:
            return function(valobj, _depth[0] <= DEPTH)
        except Exception:  # a holder read in the middle of its construction: lldb's text stands
            return None
        finally:
            _depth[0] -= 1

    summary.__name__ = function.__name__
    return summary


# -- std::optional ---------------------------------------------------------------------------------------------


def _optional_parts(valobj):  # noqa: ANN001, ANN202
    """(engaged, the contained value read from the optional's memory, named `value`) of an optional."""
    raw = valobj.GetNonSyntheticValue()
    if raw.GetType().IsReferenceType():
        raw = raw.Dereference()
    payload = raw.GetChildMemberWithName("_M_payload")  # _Optional_payload<T>, whose base holds the storage
    engaged = payload.GetChildMemberWithName("_M_engaged")
    stored = payload.GetChildMemberWithName("_M_payload").GetChildMemberWithName("_M_value")
    value = valobj.CreateValueFromAddress("value", stored.GetLoadAddress(), stored.GetType()) if stored.IsValid() else None
    return engaged.GetValueAsUnsigned() != 0, value


class OptionalSynth:
    """`std::optional<T>`: its value as its only child, `value`, found by `VALUE_NAMES`; none when empty."""

    def __init__(self, valobj, _dict):  # noqa: ANN001
        self.valobj = valobj
        self.update()

    def update(self):  # noqa: ANN201
        try:
            self.engaged, self.value = _optional_parts(self.valobj)
        except Exception:
            self.engaged, self.value = False, None
        return False

    def num_children(self):  # noqa: ANN201
        return 1 if self.engaged and self.value is not None else 0

    def get_child_index(self, name):  # noqa: ANN001, ANN201
        return 0 if name in VALUE_NAMES and self.num_children() else -1

    def get_child_at_index(self, index):  # noqa: ANN001, ANN201
        return self.value if index == 0 and self.num_children() else None

    def has_children(self):  # noqa: ANN201
        return self.num_children() > 0


@_held
def optional_summary(valobj, inside):  # noqa: ANN001, ANN201
    engaged, value = _optional_parts(valobj)
    if not engaged:
        return "nullopt"
    return text_of(value) if inside and value is not None else "has a value"


# -- std::variant ----------------------------------------------------------------------------------------------


@_held
def variant_summary(valobj, inside):  # noqa: ANN001, ANN201
    """The alternative held and its type (`7 (int)`), as lldb's own children give it (`Value`)."""
    raw = valobj.GetNonSyntheticValue()
    if raw.GetType().IsReferenceType():
        raw = raw.Dereference()
    index = raw.GetChildMemberWithName("_M_index")
    if not index.IsValid():
        return None
    if index.GetValueAsUnsigned() >= raw.GetType().GetNumberOfTemplateArguments():  # variant_npos, as stored
        return "valueless_by_exception"
    kind = raw.GetType().GetTemplateArgumentType(index.GetValueAsUnsigned())
    synthetic = valobj.GetSyntheticValue() if valobj.IsSynthetic() is False else valobj
    held = synthetic.GetChildAtIndex(0) if synthetic.IsValid() else None
    name = kind.GetDisplayTypeName() if kind.IsValid() else "?"
    if not inside or held is None or not held.IsValid():
        return f"({name})"
    return f"{text_of(held)} ({name})"


# -- std::unique_ptr, shared_ptr, weak_ptr ---------------------------------------------------------------------


@_held
def smart_pointer_summary(valobj, inside):  # noqa: ANN001, ANN201
    """`0x… <what it points to>`, `nullptr`; a `shared_ptr` and a `weak_ptr` with their counts, an expired
    `weak_ptr` as `expired`."""
    raw = valobj.GetNonSyntheticValue()
    if raw.GetType().IsReferenceType():
        raw = raw.Dereference()
    name = raw.GetType().GetCanonicalType().GetName() or ""
    counts = ""
    if name.startswith("std::unique_ptr<"):
        synthetic = valobj.GetSyntheticValue() if valobj.IsSynthetic() is False else valobj
        pointer = synthetic.GetChildMemberWithName("pointer")
    else:
        pointer = raw.GetChildMemberWithName("_M_ptr")
        shared = raw.GetChildMemberWithName("_M_refcount").GetChildMemberWithName("_M_pi")
        if shared.GetValueAsUnsigned():
            uses = shared.Dereference().GetChildMemberWithName("_M_use_count").GetValueAsSigned()
            weaks = shared.Dereference().GetChildMemberWithName("_M_weak_count").GetValueAsSigned()
            if uses == 0:
                return f"expired (weak_count={weaks})"
            counts = f" (use_count={uses}, weak_count={weaks - 1})"  # the owners hold one weak count together
    address = pointer.GetValueAsUnsigned()
    if not pointer.IsValid() or address == 0:
        return "nullptr" + counts
    text = f"0x{address:x}"
    target = pointer.Dereference()
    if inside and "[]>" not in name and target.IsValid() and target.GetError().Success() and target.GetByteSize():
        text += " " + text_of(target)
    return text + counts


def c_string_summary(valobj, _internal) -> str | None:  # noqa: ANN001 - lldb's SBValue
    """A `char *`'s text, quoted and escaped as lldb's own summary writes it, or why there is none to read."""
    address = valobj.GetValueAsUnsigned(0)
    if address == 0:
        return None  # lldb's own: the address alone
    error = lldb.SBError()
    data = valobj.GetProcess().ReadMemory(address, 1, error)
    if not error.Success() or not data:
        return f"<unreadable: cannot read memory at {address:#x}>"
    raw = b""
    while len(raw) < STRING_BYTES:  # in pieces, then byte by byte where a piece runs past readable memory
        piece = valobj.GetProcess().ReadMemory(address + len(raw), 64, error) if error.Success() else None
        if not piece:
            error = lldb.SBError()
            piece = valobj.GetProcess().ReadMemory(address + len(raw), 1, error)
            if not error.Success() or not piece:
                break
        end = piece.find(b"\0")
        if end >= 0:
            return f'"{_escaped(raw + piece[:end])}"'
        raw += piece
    return f'"{_escaped(raw[:STRING_BYTES])}"...'


def _escaped(raw: bytes) -> str:
    """UTF-8 text as it reads, control characters and bytes that are not UTF-8 as escapes."""
    def shown(c: str) -> str:
        code = ord(c)
        if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, kept by surrogateescape
            return f"\\x{code - 0xDC00:02x}"
        return _ESCAPES.get(c) or (f"\\x{code:02x}" if code < 32 or code == 127 else c)

    return "".join(shown(c) for c in raw.decode("utf-8", errors="surrogateescape"))


def __lldb_init_module(debugger, _internal) -> None:  # noqa: ANN001 - lldb's own hook
    debugger.HandleCommand(f'type synthetic add -x "{UNORDERED}" -l {__name__}.UnorderedSynth')
    debugger.HandleCommand(f'type synthetic add -x "{OPTIONAL}" -l {__name__}.OptionalSynth')
    debugger.HandleCommand(f'type summary add -x "{OPTIONAL}" -F {__name__}.optional_summary')
    debugger.HandleCommand(f'type summary add -x "{VARIANT}" -F {__name__}.variant_summary')
    debugger.HandleCommand(f'type summary add -x "{SMART}" -F {__name__}.smart_pointer_summary')
    debugger.HandleCommand(f'type summary add -x "{C_STRING}" -F {__name__}.c_string_summary')
