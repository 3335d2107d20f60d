"""Loaded into lldb-dap (`command script import`), not into dap2mcp: fixes for lldb 19's own formatters where
they misread the C++ library on this machine.

lldb 19 shows a libstdc++ `std::unordered_map` or `unordered_set` as `size=0` with no elements whatever it
holds: its formatter takes the element type from the container's allocator argument, and GCC 12 describes
that allocator without its template arguments, so the type comes back invalid and the count 0. The hash
table inside (`_M_h`, a `std::_Hashtable<Key, Value, ...>`) names the element type as its second argument.
"""

from lldb.formatters.cpp.gnu_libstdcpp import StdUnorderedMapSynthProvider  # type: ignore[import-not-found]

UNORDERED = "^std::unordered_(multi)?(map|set)<.+>$"


class UnorderedSynth(StdUnorderedMapSynthProvider):  # type: ignore[misc]
    def extract_type(self):  # noqa: ANN201 - lldb's SBType
        found = super().extract_type()
        if found.IsValid():
            return found
        return self.valobj.GetChildMemberWithName("_M_h").GetType().GetTemplateArgumentType(1)


def __lldb_init_module(debugger, _internal) -> None:  # noqa: ANN001 - lldb's own hook
    debugger.HandleCommand(f'type synthetic add -x "{UNORDERED}" -l {__name__}.UnorderedSynth')
