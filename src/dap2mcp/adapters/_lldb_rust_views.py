"""Runs inside lldb-dap's Python, imported by `_lldb_rust` after the Rust toolchain's formatters (rustc 1.95's
`lib/rustlib/etc`): how the Rust values those show wrongly, or not at all, under lldb 19 are shown instead.

- References: `&Vec<T>`, `&Option<T>`, `&&str` (a `for tag in &tags`) showed the raw fields of what they point to
  (`{buf: …, len: 2}`, `Some{$variants$:…}`, a `data_ptr` read as a C string past its length); they now show
  it as the value itself does, after the address.
- Numbers and characters: lldb reads `u8` and `i8` as C characters (`'\\xc8'`, a `[u8; 4]` as a string) and a
  `char` as `U+0x000000df U'ß'`; they read `200`, `-5` and `223 'ß'`. A `*const u8` (a slice's `data_ptr`) is
  an address, not a C string read up to a zero byte that is not there.
- Text: a `String` or `&str` is quoted and escaped as Rust's `{:?}` does (`"say \\"hi\\"\\n"`), and read up to
  `TEXT_BYTES`, so that garbage (a variable before its `let`) does not ask lldb for gigabytes.
- What the toolchain has no formatter for: `BTreeMap` and `BTreeSet` (raw B-tree nodes; a `serde_json::Value`
  holds its objects in one), `Box<str>` and `Box<[T]>`, `Mutex` and `RwLock`, a `Cell`'s value.
- What it reads wrongly from rustc 1.95's layouts: `Rc<str>`, `Arc<str>`, `Rc<[T]>` (their first element alone:
  a `regex::Regex`'s pattern read `'('`), `Ref` and `RefMut` (a child named None), a variant holding `()`
  (`Ok(())` read `Ok{None:()}`); and a smart pointer or cell shows its value, not only its counts.

Every function here that lldb calls is bounded in time by `_lldb_rust`.
"""

import re
import sys

import lldb  # type: ignore[import-not-found]
import lldb_lookup  # type: ignore[import-not-found]
import lldb_providers  # type: ignore[import-not-found]
from rust_types import RustType, is_tuple_fields  # type: ignore[import-not-found]

TEXT_BYTES = 4096
"""Bytes of a string read for its summary; a longer one ends in `…`."""
ITEMS = 32
"""Elements of a byte or character array shown in its summary."""
INNER_CHARS = 100
"""Characters of a value shown inside its container's summary (an `Rc`'s, a `Mutex`'s)."""
BTREE_HEIGHT = 30
"""Deeper than any real B-tree (one of height 30 holds more than 6^30 entries): memory that is not a map."""

FAT_POINTER = "FatPointer"  # `Box<str>`, `Box<[T]>`, `*const [T]`: the two fields of `&[T]`
DYN = "Dyn"  # `Box<dyn Trait>`, `&dyn Trait`: the value's address and the vtable of its type's `impl Trait`
LOCK = "Lock"
LOCK_NAME = re.compile(r"^std::sync::([a-z_]+::)*(Mutex|RwLock)<.+>$")
GUARD = "Guard"  # `MutexGuard<T>`, `RwLockReadGuard<T>`, `RwLockWriteGuard<T>`: the data they lend
GUARD_NAME = re.compile(r"^std::sync::([a-z_]+::)*(MutexGuard|RwLockReadGuard|RwLockWriteGuard)<.+>$")
DEREFERENCE = "$$dereference$$"
"""The child lldb's `*x` asks a value's provider for where `x` is not a pointer (`frame variable *x`, which lldb-dap
tries before its expression parser): an `Rc`'s, `Ref`'s, `MutexGuard`'s or `Box<dyn Trait>`'s value."""
STR_NAME = re.compile(r"(^|[\s&*<])str([\s,>]|$)")
"""The name of a fat pointer to text rather than to a slice: `&str`, `Box<str, Global>`, `*const RcInner<str>`."""

FORMATS = (
    'type format add --category Rust -f d "char"',  # i8
    'type format add --category Rust -f u "unsigned char"',  # u8
    'type format add --category Rust -f d "char32_t"',  # char: its number, then the summary gives the character
    f"type summary add --category Rust -F {__name__}.char_summary char32_t",
    f'type summary add --category Rust -F {__name__}.array_summary -x "^(unsigned char|char|char32_t) ?\\[[0-9]+\\]$"',
    f'type summary add --category Rust -F {__name__}.pointer_summary -x "^(unsigned char|char|char32_t) ?\\*$"',
    'type summary add --category Rust -F lldb_lookup.summary_lookup -e -x -h "^alloc::boxed::Box<.+>$"',
    'type summary add --category Rust -F lldb_lookup.summary_lookup -e -x -h "^&(mut )?dyn .+$"',
    f'type summary add --category Rust -F lldb_lookup.summary_lookup -e -x -h "{LOCK_NAME.pattern}"',
    f'type summary add --category Rust -F lldb_lookup.summary_lookup -e -x -h "{GUARD_NAME.pattern}"',
)
"""lldb commands for the types the toolchain registers no formatter for (lldb 19 names `u8` `unsigned char`,
`i8` `char` and `char` `char32_t`); within the Rust category, which only a Rust program loads."""

_toolchain = {}
"""The toolchain's own lookups, which ours fall back on."""


def install(debugger, session):
    """Put our lookups in the place of the toolchain's (lldb calls them by name: `lldb_lookup.summary_lookup`)
    and add the formatters it lacks, which name ours through lldb's `session` dictionary."""
    if getattr(lldb_lookup.summary_lookup, "__module__", None) == __name__:
        return  # imported again into the same lldb
    session[__name__] = sys.modules[__name__]
    for name in ("summary_lookup", "synthetic_lookup"):
        _toolchain[name] = getattr(lldb_lookup, name)
    lldb_lookup.summary_lookup = summary_lookup
    lldb_lookup.synthetic_lookup = synthetic_lookup
    lldb_lookup.StdStringSummaryProvider = string_summary
    lldb_lookup.ClangEncodedEnumSummaryProvider = enum_summary
    for command in FORMATS:
        debugger.HandleCommand(command)


# -- what a value is ------------------------------------------------------------------------------------------


def kind_of(value_type):
    """The toolchain's classification of a type, with the kinds of ours (`FAT_POINTER`, `DYN`, `LOCK`)."""
    kind = lldb_lookup.classify_rust_type(value_type)
    if kind == RustType.STRUCT:
        fields = [field.name for field in value_type.fields]
        if fields == ["data_ptr", "length"]:
            return FAT_POINTER
        if fields == ["pointer", "vtable"]:
            return DYN
        if LOCK_NAME.match(value_type.GetName() or ""):
            return LOCK
        if GUARD_NAME.match(value_type.GetName() or ""):
            return GUARD
    return kind


def pointee(valobj):
    """What `valobj` points to where it is a reference (or `Box`) to a value with a formatter of its own: `&Vec<T>`,
    `&Option<T>`, `&&str`; else None (a reference to a plain struct shows its fields as it is)."""
    if not valobj.TypeIsPointerType() or valobj.GetValueAsUnsigned() == 0:
        return None
    if kind_of(valobj.GetType().GetPointeeType()) in (RustType.OTHER, RustType.STRUCT, RustType.EMPTY, RustType.TUPLE):
        return None
    target = valobj.Dereference()
    return target if target.IsValid() else None


def text_of(value, limit=INNER_CHARS, through=2):
    """A value as its container's summary shows it: its own summary, else its value, else its fields one level deep
    (`{a:1, b:"x", c:{…}}`: the toolchain's went down every level, through all of a `regex::Regex`). A reference
    shows what it points to (`Some(&3)`, not `Some(0x7ff…)`), `through` references deep."""
    value.SetPreferSyntheticValue(True)
    text = value.GetSummary()
    if text and text.startswith("size=") and text[5:].isdigit():
        text += " " + elements(value, limit)
    if not text and through and value.TypeIsPointerType() and value.GetValueAsUnsigned() \
            and not value.GetType().GetPointeeType().IsFunctionType():
        target = value.Dereference()
        if target.IsValid() and target.GetByteSize():
            text = "&" + text_of(target, None, through - 1)
    text = text or value.GetValue()
    if not text:
        fields = value.GetType().fields
        named = bool(fields) and not is_tuple_fields(fields)
        parts = []
        for index in range(value.GetNumChildren()):
            if len(parts) == ITEMS or limit is not None and sum(map(len, parts)) > limit:
                parts.append("…")
                break
            child = value.GetChildAtIndex(index)
            child.SetPreferSyntheticValue(True)
            shown = child.GetSummary() or child.GetValue() or ("{…}" if child.MightHaveChildren() else "{}")
            parts.append(f"{child.GetName()}:{shown}" if named else shown)
        brackets = "[{}]" if value.GetType().IsArrayType() else "{{{}}}" if named or not parts else "({})"
        text = brackets.format(", ".join(parts))
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"


def elements(value, limit=INNER_CHARS):
    """A container's first elements (`[1, 2, 3]`), shown after its count where it stands inside another value (an
    `Rc<Vec<u32>>`'s summary read `size=3`); within `limit` characters."""
    parts = []
    for index in range(value.GetNumChildren()):
        if len(parts) == ITEMS or limit is not None and sum(map(len, parts)) > limit:
            parts.append("…")
            break
        child = value.GetChildAtIndex(index)
        child.SetPreferSyntheticValue(True)
        parts.append(child.GetSummary() or child.GetValue() or ("{…}" if child.MightHaveChildren() else "{}"))
    return "[" + ", ".join(parts) + "]"


# -- the lookups lldb calls -------------------------------------------------------------------------------------


def summary_lookup(valobj, _dict):
    """The summary of a value of the standard library's (lldb calls this for the types the toolchain and `FORMATS`
    name): ours where the toolchain has none or a wrong one, else the toolchain's."""
    target = pointee(valobj)
    if target is not None:
        return summary_lookup(target, _dict)
    kind = kind_of(valobj.GetType())
    if kind == RustType.STD_STRING:
        return string_summary(valobj, _dict)
    if kind in (RustType.STD_STR, FAT_POINTER):
        return fat_pointer_summary(valobj)
    if kind in (RustType.STD_BTREE_MAP, RustType.STD_BTREE_SET):
        return BTreeProvider(valobj, _dict).summary()
    if kind in (RustType.STD_RC, RustType.STD_ARC):
        return RcProvider(valobj, _dict).summary()
    if kind in (RustType.STD_REF, RustType.STD_REF_MUT, RustType.STD_REF_CELL):
        return RefProvider(valobj, _dict, is_cell=kind == RustType.STD_REF_CELL).summary()
    if kind == RustType.STD_CELL:
        return text_of(_member(valobj, "value", "value"))
    if kind == LOCK:
        return LockProvider(valobj, _dict).summary()
    if kind == GUARD:
        return GuardProvider(valobj, _dict).summary()
    if kind == DYN:
        return DynProvider(valobj, _dict).summary()
    if valobj.TypeIsPointerType():
        return ""  # a `Box<T>` of a plain T: its address
    return _toolchain["summary_lookup"](valobj, _dict)


def synthetic_lookup(valobj, _dict):
    """The children of any value (lldb calls this for every type): our provider where the toolchain has none or a
    wrong one, else the toolchain's."""
    if pointee(valobj) is not None:
        return PointeeProvider(valobj, _dict)
    kind = kind_of(valobj.GetType())
    if kind == RustType.STD_STRING:
        return lldb_providers.StdStringSyntheticProvider(valobj, _dict)  # a `&String`, through `PointeeProvider`
    if kind == RustType.STD_STR or kind == FAT_POINTER and STR_NAME.search(valobj.GetTypeName() or ""):
        return StrProvider(valobj, _dict)
    if kind == FAT_POINTER:
        return lldb_providers.StdSliceSyntheticProvider(valobj, _dict)
    if kind in (RustType.STD_BTREE_MAP, RustType.STD_BTREE_SET):
        return BTreeProvider(valobj, _dict)
    if kind in (RustType.STD_RC, RustType.STD_ARC):
        return RcProvider(valobj, _dict)
    if kind in (RustType.STD_REF, RustType.STD_REF_MUT, RustType.STD_REF_CELL):
        return RefProvider(valobj, _dict, is_cell=kind == RustType.STD_REF_CELL)
    if kind == LOCK:
        return LockProvider(valobj, _dict)
    if kind == GUARD:
        return GuardProvider(valobj, _dict)
    if kind == DYN:
        return DynProvider(valobj, _dict)
    if kind == RustType.TUPLE:
        return TupleProvider(valobj, _dict)
    return _toolchain["synthetic_lookup"](valobj, _dict)


class PointeeProvider:
    """The children of what a reference points to, found anew at each update (it may point elsewhere by then)."""

    def __init__(self, valobj, _dict):
        self.valobj = valobj
        self.update()

    def update(self):
        target = pointee(self.valobj)
        self.inner = synthetic_lookup(target.GetNonSyntheticValue(), None) if target is not None \
            else lldb_providers.DefaultSyntheticProvider(self.valobj, None)

    def num_children(self):
        return self.inner.num_children()

    def get_child_index(self, name):
        return self.inner.get_child_index(name)

    def get_child_at_index(self, index):
        return self.inner.get_child_at_index(index)

    def has_children(self):
        return self.inner.has_children()


# -- text, numbers, characters ------------------------------------------------------------------------------


def quoted(text, quote='"'):
    """`text` as Rust's `{:?}` writes it: quoted, with quotes, backslashes and control characters escaped."""
    out = []
    for char in text:
        if char in (quote, "\\"):
            out.append("\\" + char)
        elif char in "\n\r\t\0":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0"}[char])
        elif ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0:
            out.append(f"\\u{{{ord(char):x}}}")
        else:
            out.append(char)
    return quote + "".join(out) + quote


def text_at(process, address, length):
    """The UTF-8 text of `length` bytes at `address`, quoted; its first `TEXT_BYTES` and `…` if longer."""
    if length == 0:
        return '""'
    error = lldb.SBError()
    data = process.ReadMemory(address, min(length, TEXT_BYTES), error)
    if not error.Success() or data is None:
        return f"<unreadable: {length} bytes at {address:#x}>"
    text = data.decode("utf-8", "replace")
    if length > TEXT_BYTES:
        return quoted(text.rstrip("\ufffd")) + "…"  # a character cut in two at the end is not a wrong byte
    return quoted(text)


def string_summary(valobj, _dict):
    """`alloc::string::String`, and a reference to one."""
    valobj = pointee(valobj) or valobj
    vec = valobj.GetNonSyntheticValue().GetChildMemberWithName("vec").GetNonSyntheticValue()
    data = _member(vec, "buf", "inner", "ptr", "pointer", "pointer")
    length = vec.GetChildMemberWithName("len").GetValueAsUnsigned()
    return text_at(valobj.GetProcess(), data.GetValueAsUnsigned(), length)


def fat_pointer_summary(valobj):
    """`&str`, `Box<str>` (the text), `&[T]`, `Box<[T]>` (the count)."""
    raw = valobj.GetNonSyntheticValue()
    length = raw.GetChildMemberWithName("length").GetValueAsUnsigned()
    if STR_NAME.search(raw.GetTypeName() or ""):
        data = raw.GetChildMemberWithName("data_ptr").GetValueAsUnsigned()
        return text_at(valobj.GetProcess(), data, length)
    return f"size={length}"


class StrProvider(lldb_providers.StdSliceSyntheticProvider):
    """A `&str`'s or `Box<str>`'s bytes, shown as characters as a `String`'s are (not as the numbers a `[u8]` holds)."""

    def get_child_at_index(self, index):
        byte = super().get_child_at_index(index)
        byte.SetFormat(lldb.eFormatChar)
        return byte


def char_summary(valobj, _dict):
    code = valobj.GetValueAsUnsigned()
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return "<not a char>"
    return quoted(chr(code), "'")


def array_summary(valobj, _dict):
    """A `[u8; N]`, `[i8; N]` or `[char; N]` as a list, which lldb took for a C string."""
    count = valobj.GetNumChildren()
    items = []
    for index in range(min(count, ITEMS)):
        element = valobj.GetChildAtIndex(index)
        items.append(element.GetSummary() or element.GetValue() or "?")
    return "[" + ", ".join(items) + (", …]" if count > ITEMS else "]")


def pointer_summary(valobj, _dict):
    """None for a `*const u8`: lldb read it as a C string, up to a zero byte that Rust's text does not have."""
    return ""


# -- enums --------------------------------------------------------------------------------------------------


def enum_summary(valobj, _dict):
    """The toolchain's summary of an enum (`Some(3)`, `Deposit{account:"alice", cents:1250}`), also of a
    reference to one, and with `()` for a field of no size, which it could not read."""
    valobj = pointee(valobj) or valobj
    enum = lldb_providers.ClangEncodedEnumProvider(valobj.GetNonSyntheticValue(), _dict)
    name = lldb_providers._getVariantName(enum.variant)
    fields = enum.value.GetType().fields
    if not fields:
        return name
    texts = []
    for index, field in enumerate(fields):
        child = enum.value.GetChildAtIndex(index)
        texts.append(text_of(child, None) if child.IsValid() and child.GetName() else _zero_sized(field.type))
    if is_tuple_fields(fields):
        return f"{name}({', '.join(texts)})"
    return name + "{" + ", ".join(f"{field.name}:{text}" for field, text in zip(fields, texts, strict=True)) + "}"


def _zero_sized(field_type):
    """How a field that takes no memory reads: `()`, or its type's name (`PhantomData`)."""
    name = field_type.GetName() or ""
    return "()" if name in ("()", "void", "") else name.split("<", 1)[0].rsplit("::", 1)[-1]


class TupleProvider(lldb_providers.TupleSyntheticProvider):
    """A tuple, or a variant's fields (`Some(3)`), without the fields of no size (the `()` of `Ok(())`), of which lldb
    cannot make a value: the toolchain's showed a child named None."""

    def __init__(self, valobj, _dict):
        super().__init__(valobj, _dict)
        self.sized = [index for index, field in enumerate(self.type.fields) if field.type.GetByteSize()]
        self.size = len(self.sized)

    def get_child_at_index(self, index):
        return super().get_child_at_index(self.sized[index]) if 0 <= index < self.size else None


# -- smart pointers, cells and locks --------------------------------------------------------------------------


def _member(value, *names):
    for name in names:
        value = value.GetNonSyntheticValue().GetChildMemberWithName(name)
    return value


def _innermost(value):
    """The number inside a counter or flag (`Cell<usize>`, `AtomicUsize`, `AtomicBool`: wrappers of one field)."""
    value = value.GetNonSyntheticValue()
    while value.GetNumChildren() == 1:
        value = value.GetChildAtIndex(0).GetNonSyntheticValue()
    return value.GetValueAsUnsigned()


class RcProvider:
    """`Rc<T>` and `Arc<T>`: their value as the only child, and in the summary before the counts.

    An `Rc` of a type without a size points with a fat pointer, which the toolchain's read as a plain one (the first
    element alone; a `regex::Regex`'s pattern read `'('`): `Rc<str>` shows the text, `Rc<[T]>` the elements as
    children, `Rc<dyn Trait>` the value of the type that implements it, found by its vtable."""

    def __init__(self, valobj, _dict):
        self.valobj = valobj
        self.update()

    def update(self):
        pointer = _member(self.valobj, "ptr", "pointer")
        kind = kind_of(pointer.GetType())
        self.length, self.is_text, self.name = None, False, None
        if kind == FAT_POINTER:  # {data_ptr, length}
            self.is_text = bool(STR_NAME.search(pointer.GetTypeName() or ""))
            self.length = pointer.GetChildMemberWithName("length").GetValueAsUnsigned()
            inner = pointer.GetChildMemberWithName("data_ptr").Dereference()
        elif kind == DYN:  # {pointer, vtable}
            inner = pointer.GetChildMemberWithName("pointer").Dereference()
        else:
            inner = pointer.Dereference()
        # RcInner {strong, weak, value}, ArcInner {strong, weak, data}
        self.value = inner.GetChildMemberWithName("data")
        if not self.value.IsValid():
            self.value = inner.GetChildMemberWithName("value")
        if kind == DYN:
            self.value = self._implementor(inner, pointer.GetChildMemberWithName("vtable").GetValueAsUnsigned())
        self.strong = _innermost(inner.GetChildMemberWithName("strong"))
        self.weak = _innermost(inner.GetChildMemberWithName("weak")) - 1  # the strong ones hold one weak together

    def _implementor(self, inner, vtable):
        """The value behind an `Rc<dyn Trait>`, as the type that implements it; None where that is not known.
        It lies after the counts, aligned as the vtable says (its words: drop, size, align, methods...)."""
        self.name, found = implementor(inner, vtable)
        if found is None:
            return None
        process = self.valobj.GetProcess()
        word = process.GetAddressByteSize()
        align = max(process.ReadUnsignedFromMemory(vtable + 2 * word, word, lldb.SBError()), 1)
        header = self.value.GetLoadAddress() - inner.GetLoadAddress()
        address = inner.GetLoadAddress() + -(-header // align) * align
        return self.valobj.CreateValueFromAddress("value", address, found)

    def summary(self):
        counts = f"(strong={self.strong}, weak={self.weak})"
        if self.is_text:
            return f"{text_at(self.valobj.GetProcess(), self.value.GetLoadAddress(), self.length)} {counts}"
        if self.length is not None:
            items = [text_of(self.get_child_at_index(index), 60) for index in range(min(self.length, ITEMS))]
            while len(items) > 1 and sum(map(len, items)) > INNER_CHARS:
                items.pop()
            shown = ", ".join(items) + (", …" if len(items) < self.length else "")
            return f"size={self.length} [{shown}] {counts}"
        if self.value is None:
            return f"{self.name or 'dyn'} {counts}"
        shown = text_of(self.value)
        return f"{self.name} {shown} {counts}" if self.name else f"{shown} {counts}"

    def num_children(self):
        if self.is_text or self.value is None or not self.value.GetByteSize():  # a closure that captured nothing
            return 0
        return 1 if self.length is None else self.length

    def get_child_index(self, name):
        if self.length is None:
            return 0 if name in ("value", DEREFERENCE) and self.num_children() else -1
        index = name.strip("[]")
        return int(index) if index.isdigit() else -1

    def get_child_at_index(self, index):
        if not 0 <= index < self.num_children():
            return None
        if self.length is None:
            return self.value
        element = self.value.GetType()
        address = self.value.GetLoadAddress() + index * element.GetByteSize()
        return self.valobj.CreateValueFromAddress(f"[{index}]", address, element)

    def has_children(self):
        return self.num_children() > 0


class _OnlyChild:
    """A provider of a value with one child, named `CHILD` and kept in the attribute of that name."""

    CHILD = "value"

    def num_children(self):
        return 1

    def get_child_index(self, name):
        return 0 if name in (self.CHILD, DEREFERENCE) else -1

    def get_child_at_index(self, index):
        return getattr(self, self.CHILD) if index == 0 else None

    def has_children(self):
        return True


class RefProvider(_OnlyChild):
    """`RefCell<T>`, and `Ref<T>`, `RefMut<T>`, whose value is a `NonNull<T>` (the toolchain's dereferenced the
    `NonNull` itself and showed a child named None): the value as the only child."""

    def __init__(self, valobj, _dict, is_cell=False):
        self.valobj = valobj
        self.is_cell = is_cell
        self.update()

    def update(self):
        if self.is_cell:
            self.value = _member(self.valobj, "value", "value")
            self.borrow = _member(self.valobj, "borrow")
        else:
            pointer = lldb_providers.unwrap_unique_or_non_null(_member(self.valobj, "value"))
            self.value = self.valobj.CreateValueFromAddress("value", pointer.GetValueAsUnsigned(),
                                                            pointer.GetType().GetPointeeType())
            self.borrow = _member(self.valobj, "borrow", "borrow").Dereference()  # the RefCell's flag

    def summary(self):
        flag = self.borrow.GetNonSyntheticValue()
        while flag.GetNumChildren() == 1:
            flag = flag.GetChildAtIndex(0).GetNonSyntheticValue()
        borrows = flag.GetValueAsSigned()
        state = f" (borrow={borrows})" if borrows > 0 else f" (borrow_mut={-borrows})" if borrows < 0 else ""
        return text_of(self.value) + state


class LockProvider(_OnlyChild):
    """`Mutex<T>` and `RwLock<T>`: the data as the only child; the summary says whether it is locked (Linux's futex
    locks) or poisoned."""

    CHILD = "data"

    READERS = (1 << 30) - 1
    """The bits of a futex `RwLock`'s state that count its readers (all of them set: a writer holds it)."""

    def __init__(self, valobj, _dict):
        self.valobj = valobj
        self.update()

    def update(self):
        data = _member(self.valobj, "data", "value")
        self.data = self.valobj.CreateValueFromAddress("data", data.GetLoadAddress(), data.GetType())

    def summary(self):
        states = []
        inner = _member(self.valobj, "inner")
        kind = inner.GetTypeName() or ""
        if "futex" in kind:  # elsewhere, the lock's state is the system's
            state = _innermost(inner)
            if state & self.READERS if "RwLock" in kind else state:
                states.append("locked")
        if _innermost(_member(self.valobj, "poison")):
            states.append("poisoned")
        return text_of(self.data) + (f" ({', '.join(states)})" if states else "")


class _LendsChildren:
    """A value that stands for another (`self.value`, None where there is none): its children are that value's,
    and the value itself is reached after them by the names in `SELF_NAMES` (`*x`)."""

    SELF_NAMES: tuple[str, ...] = (DEREFERENCE,)
    value = None

    def num_children(self):
        return 0 if self.value is None else self.value.GetNumChildren()

    def get_child_index(self, name):
        if self.value is None:
            return -1
        if name in self.SELF_NAMES:
            return self.value.GetNumChildren()
        return self.value.GetIndexOfChildWithName(name)

    def get_child_at_index(self, index):
        if self.value is None:
            return None
        if index == self.value.GetNumChildren():
            return self.value
        return self.value.GetChildAtIndex(index)

    def has_children(self):
        return self.value is not None and self.value.MightHaveChildren()


class GuardProvider(_LendsChildren):
    """`MutexGuard<T>`, `RwLockWriteGuard<T>`, `RwLockReadGuard<T>`: the data they lend, whose fields are their
    children (`guard.count`, which read `guard.lock.data.value.count`) and which `*guard` reaches; the summary is
    the lock's (`{count:4} (locked)`)."""

    SELF_NAMES = (DEREFERENCE, "data")

    def __init__(self, valobj, _dict):
        self.valobj = valobj
        self.update()

    def update(self):
        raw = self.valobj.GetNonSyntheticValue()
        self.lock, self.value = None, None
        lock = raw.GetChildMemberWithName("lock")
        if lock.IsValid() and lock.GetValueAsUnsigned():  # &Mutex<T>, &RwLock<T>
            self.lock = lock.Dereference()
            data = _member(self.lock, "data", "value")
            self.value = self.valobj.CreateValueFromAddress("data", data.GetLoadAddress(), data.GetType())
        else:  # a read guard: NonNull<T>
            pointer = lldb_providers.unwrap_unique_or_non_null(_member(raw, "data"))
            if pointer.IsValid() and pointer.GetValueAsUnsigned():
                self.value = self.valobj.CreateValueFromAddress("data", pointer.GetValueAsUnsigned(),
                                                                pointer.GetType().GetPointeeType())
        if self.value is not None:
            self.value.SetPreferSyntheticValue(True)

    def summary(self):
        if self.lock is not None:
            return LockProvider(self.lock.GetNonSyntheticValue(), None).summary()
        return "" if self.value is None else text_of(self.value)


# -- dyn Trait ---------------------------------------------------------------------------------------------------

_vtables = {}
"""Per executable: the name of the vtable at each address (`<stdt::Dog as stdt::Speak>::{vtable}`), from the
debug info's globals, read once."""


def implementor(valobj, vtable):
    """The type behind a `dyn Trait` whose vtable is at `vtable`: its name (`stdt::Dog`), and its lldb type where
    lldb finds it (else None). None, None where no vtable is known there."""
    target = valobj.GetTarget()
    key = str(target.GetExecutable())
    if key not in _vtables:
        found = target.FindGlobalVariables(r"::\{vtable\}$", 1_000_000, lldb.eMatchTypeRegex)
        _vtables[key] = {variable.GetLoadAddress(): variable.GetName() for variable in found}
    name = _vtables[key].get(vtable)
    if not name or not name.startswith("<"):
        return None, None
    depth = 0
    for index, char in enumerate(name):  # <X as Trait>::{vtable}: the " as " outside any brackets
        depth += char in "<([" and 1 or char in ">)]" and -1 or 0
        if depth == 1 and name.startswith(" as ", index):
            concrete = name[1:index]
            found = target.FindFirstType(concrete)
            return concrete, found if found.IsValid() else None
    return None, None


class DynProvider(_LendsChildren):
    """`Box<dyn Trait>`, `&dyn Trait`: the value of the type that implements it, found by its vtable; its children
    are that value's, as a `Box<T>`'s are T's. Its summary names the type (`stdt::Dog {name:"rex"}`)."""

    def __init__(self, valobj, _dict):
        self.valobj = valobj
        self.update()

    def update(self):
        raw = self.valobj.GetNonSyntheticValue()
        address = raw.GetChildMemberWithName("pointer").GetValueAsUnsigned()
        self.name, found = implementor(raw, raw.GetChildMemberWithName("vtable").GetValueAsUnsigned())
        self.value = None
        if found is not None and address:
            self.value = self.valobj.CreateValueFromAddress("value", address, found)
            self.value.SetPreferSyntheticValue(True)

    def summary(self):
        if self.value is None:
            return self.name or ""
        return f"{self.name} {text_of(self.value)}"


# -- BTreeMap, BTreeSet ---------------------------------------------------------------------------------------


class BTreeProvider:
    """`BTreeMap<K, V>`: an entry per key in order, named by the key (`{"a": 1, "b": 2}` as a map prints);
    `BTreeSet<K>`: its keys, `[0]`, `[1]`, … Its summary holds its first entries (`size=2 {1: "a", 2: "b"}`),
    so that a map inside another value is read where it stands (a `serde_json::Value::Object`'s keys).

    The map's nodes (`LeafNode`: `len`, `keys`, `vals`; an internal node is a `LeafNode` followed by its `edges`)
    are walked in order, only as far as the children asked for."""

    def __init__(self, valobj, _dict):
        self.valobj = valobj
        self.update()

    def update(self):
        raw = self.valobj.GetNonSyntheticValue()
        self.is_set = lldb_lookup.classify_rust_type(raw.GetType()) == RustType.STD_BTREE_SET
        tree = raw.GetChildMemberWithName("map") if self.is_set else raw
        self.length = tree.GetChildMemberWithName("length").GetValueAsUnsigned()
        self.entries, self.names, self.walk = [], {}, iter(())
        root = tree.GetChildMemberWithName("root")  # an Option, read through its synthetic children
        root.SetPreferSyntheticValue(True)
        if self.length == 0 or root.GetNumChildren() == 0:
            return
        node_ref = root.GetChildAtIndex(0)
        leaf = _member(node_ref, "node", "pointer")
        leaf_type = leaf.GetType().GetPointeeType()
        offsets = {field.name: field.byte_offset for field in leaf_type.fields}
        if not {"len", "keys", "vals"} <= offsets.keys():
            return
        self.process = self.valobj.GetProcess()
        self.pointer_size = self.process.GetAddressByteSize()
        self.offsets = offsets
        self.edges = -(-leaf_type.GetByteSize() // self.pointer_size) * self.pointer_size  # InternalNode: repr(C)
        map_type = tree.GetType()
        self.key_type = map_type.GetTemplateArgumentType(0)
        self.value_type = map_type.GetTemplateArgumentType(1)
        if not self.key_type.IsValid():
            self.key_type, self.value_type = leaf_type.GetTemplateArgumentType(0), leaf_type.GetTemplateArgumentType(1)
        height = _member(node_ref, "height").GetValueAsUnsigned()
        if height <= BTREE_HEIGHT:
            self.walk = self._in_order(leaf.GetValueAsUnsigned(), height)

    def _in_order(self, node, height):
        """(node, index) of each entry under `node`, in key order."""
        error = lldb.SBError()
        count = self.process.ReadUnsignedFromMemory(node + self.offsets["len"], 2, error)
        if not error.Success() or count > 11:  # a node holds at most 11 entries: memory that is not a node
            return
        for index in range(count + 1):
            if height:
                edge = self.process.ReadPointerFromMemory(node + self.edges + index * self.pointer_size, error)
                if not error.Success():
                    return
                yield from self._in_order(edge, height - 1)
            if index < count:
                yield node, index

    def _entry(self, index):
        """The name, and the address and type of the child shown, of entry `index`, walking the tree as far as it;
        None past its end."""
        while len(self.entries) <= index:
            found = next(self.walk, None)
            if found is None or len(self.entries) >= self.length:
                return None
            node, slot = found
            key = node + self.offsets["keys"] + slot * self.key_type.GetByteSize()
            if self.is_set:
                name, shown = f"[{len(self.entries)}]", (key, self.key_type)
            else:
                name = text_of(self.valobj.CreateValueFromAddress("key", key, self.key_type), 60)
                shown = (node + self.offsets["vals"] + slot * self.value_type.GetByteSize(), self.value_type)
            self.names.setdefault(name, len(self.entries))
            self.entries.append((name, *shown))
        return self.entries[index]

    def summary(self):
        parts, length = [], 0
        for index in range(self.length):
            if length > INNER_CHARS or self._entry(index) is None:
                parts.append("…")
                break
            shown = text_of(self.get_child_at_index(index), 60)
            parts.append(shown if self.is_set else f"{self.entries[index][0]}: {shown}")
            length += len(parts[-1]) + 2
        if not parts:
            return f"size={self.length}"
        return f"size={self.length} " + ("[{}]" if self.is_set else "{{{}}}").format(", ".join(parts))

    def num_children(self):
        return self.length

    def get_child_index(self, name):
        while name not in self.names and self._entry(len(self.entries)) is not None:
            pass
        return self.names.get(name, -1)

    def get_child_at_index(self, index):
        entry = self._entry(index) if index >= 0 else None
        return None if entry is None else self.valobj.CreateValueFromAddress(*entry)

    def has_children(self):
        return self.length > 0
