"""What is checked of a core file before a debugger opens it (mode `core`): that it is an ELF core, whole, and of
the executable given. lldb and gdb open a core cut short, or one of another program, without a word, and show
frames that are wrong or empty."""

from __future__ import annotations

import os

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from ..errors import DebugError, ErrorCode


def check(executable: str, core: str) -> None:
    """INVALID_ARGUMENT where `core` is no ELF core, is cut short, or is of another program than `executable`: by
    the build id where the core holds the executable's first page, else by the name it ran as."""
    try:
        with open(core, "rb") as handle:
            elf = ELFFile(handle)
            if elf["e_type"] != "ET_CORE":
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"'{core}' is no core file: an ELF file of type "
                                 f"{elf['e_type']}; `core` takes the core, `path` the executable it is of")
            segments = list(elf.iter_segments())
            needed = max((s["p_offset"] + s["p_filesz"] for s in segments), default=0)
            if needed > (size := os.fstat(handle.fileno()).st_size):
                raise DebugError(ErrorCode.INVALID_ARGUMENT, f"the core file '{core}' is cut short: it has {size} "
                                 f"bytes of the {needed} its segments take (an interrupted copy or write?)")
            mapped = _mapped_files(segments)
            ran_as = mapped[0][0] if mapped else None
            first_page = _first_page(segments, mapped[0][1]) if mapped else b""
    except (ELFError, ValueError, OSError) as exc:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"'{core}' is no core file that can be read: {exc}") from None
    built = build_id(executable)
    if built and first_page:  # the build id decides, whatever the file is called now
        if built not in first_page:
            raise DebugError(ErrorCode.INVALID_ARGUMENT, f"the core is of another program or build than "
                             f"'{executable}' (its build id {built.hex()} is not in the core, which ran as "
                             f"'{ran_as}'): give the executable that wrote it")
    elif ran_as is not None and os.path.basename(ran_as) != os.path.basename(executable):
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"the core is of '{ran_as}', not of '{executable}': give that "
                         "executable as `path`")


def build_id(executable: str) -> bytes | None:
    """The GNU build id an executable's linker wrote, where it has one."""
    try:
        with open(executable, "rb") as handle:
            section = ELFFile(handle).get_section_by_name(".note.gnu.build-id")
            notes = list(section.iter_notes()) if section is not None else []
    except (ELFError, OSError):
        return None
    return next((bytes.fromhex(n["n_desc"]) for n in notes if n["n_type"] == "NT_GNU_BUILD_ID"), None)


def stripped(executable: str) -> bool:
    """Whether the executable has neither a symbol table nor debug info: a core of it shows addresses only."""
    try:
        with open(executable, "rb") as handle:
            elf = ELFFile(handle)
            return not any(elf.get_section_by_name(name) for name in (".symtab", ".debug_info", ".zdebug_info"))
    except (ELFError, OSError):
        return False


def _mapped_files(segments: list) -> list[tuple[str, int]]:
    """The core's file mappings (NT_FILE) as (path, start address), the program's own first."""
    for segment in segments:
        if segment["p_type"] != "PT_NOTE":
            continue
        for note in segment.iter_notes():
            if note["n_type"] == "NT_FILE":
                desc = note["n_desc"]
                return [(name.decode(errors="replace") if isinstance(name, bytes) else str(name), entry["vm_start"])
                        for name, entry in zip(desc["filename"], desc["Elf_Nt_File_Entry"], strict=False)]
    return []


def _first_page(segments: list, address: int) -> bytes:
    """The bytes the core holds of the page at `address` (none where the core left it out, as file-backed pages
    often are)."""
    for segment in segments:
        if segment["p_type"] == "PT_LOAD" and segment["p_vaddr"] == address and segment["p_filesz"]:
            return segment.data()[:4096]
    return b""
