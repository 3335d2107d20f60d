"""lldb's words about a Rust symbol of the legacy mangling keep its escapes (issue 36 point 6): an evaluate's error
names `clos::main::{{closure}}`, not `clos::main::_$u7b$$u7b$closure$u7d$$u7d$::h25a5…`."""

from dap2mcp.adapters.native import GDB, LLDB


def test_lldb_errors_name_rust_symbols_readably() -> None:
    said = ("error: Couldn't look up symbols:\n  clos::main::_$u7b$$u7b$closure$u7d$$u7d$::h25a511144be9b763\n"
            "  _$LT$alloc..vec..Vec$LT$T$C$A$GT$$u20$as$u20$core..ops..drop..Drop$GT$::drop::hc94473cccd8dc1fe.")
    assert LLDB.readable_text(said) == ("error: Couldn't look up symbols:\n  clos::main::{{closure}}\n"
                                        "  <alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop.")


def test_words_without_escapes_are_left_as_they_are() -> None:
    said = "error: use of undeclared identifier 'total'... and $1 = 5"
    assert LLDB.readable_text(said) == said
    assert GDB.readable_text("x$u7b$") == "x$u7b$"  # gdb's profile has no escapes to undo
