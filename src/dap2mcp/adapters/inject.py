"""Run Python code inside a live Python process, for attach by pid, with ptrace alone.

debugpy's own injector drives gdb through inferior calls that run the code on the main thread
wherever gdb stopped it. gdb restores the whole XSAVE area after such calls and gives up when the
kernel refuses that write ("Couldn't write extended state status"), so attach by pid fails there
with any gdb-based client; here, where the XSAVE write is refused, the legacy FPU/SSE area is
written back instead. And code run wherever the thread happened to be can crash the process (see
`run_python`), so it runs only where that is safe.

Only the main thread is stopped; the calls run on it, and it resumes where it was, every register
as it was (a system call it was blocked in is restarted by the kernel, as after any signal).
x86-64 Linux, glibc.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import platform
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

from elftools.elf.elffile import ELFFile

from .. import processes
from ..errors import DebugError, ErrorCode

PTRACE_GETREGS, PTRACE_SETREGS = 12, 13
PTRACE_GETFPREGS, PTRACE_SETFPREGS = 14, 15
PTRACE_ATTACH, PTRACE_DETACH, PTRACE_CONT = 16, 17, 7
PTRACE_GETREGSET, PTRACE_SETREGSET, NT_X86_XSTATE = 0x4204, 0x4205, 0x202
XSAVE_BYTES = 64 * 1024
"""Room for any XSAVE area (AMX tile data included); the kernel says how much it used."""
WALL = 0x40000000
NO_SYSCALL = 2**64 - 1
INTERRUPTED = {2**64 - errno.EINTR} | {2**64 - code for code in (512, 513, 514, 516)}
"""What rax holds when the stop came inside a blocking system call: -EINTR, or the kernel's
-ERESTARTSYS, -ERESTARTNOINTR, -ERESTARTNOHAND, -ERESTART_RESTARTBLOCK."""
PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, MAP_FAILED = 0x3, 0x22, 2**64 - 1
STACK_GAP = 512
"""Bytes left untouched below the interrupted stack pointer: the red zone and then some."""


class Registers(ctypes.Structure):
    """`struct user_regs_struct` of x86-64."""

    _fields_ = [(name, ctypes.c_ulonglong) for name in (
        "r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx", "rdx", "rsi", "rdi",
        "orig_rax", "rip", "cs", "eflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es", "fs", "gs")]


_libc = ctypes.CDLL(None, use_errno=True)
_libc.ptrace.restype = ctypes.c_long
_libc.ptrace.argtypes = (ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p)


def supported() -> bool:
    return platform.system() == "Linux" and platform.machine() == "x86_64"


PYTHON_FUNCTIONS = ("Py_IsInitialized", "PyGILState_Check", "PyGILState_Ensure", "PyGILState_Release",
                    "PyRun_SimpleString", "Py_AddPendingCall")
UNTRACED_FUNCTIONS = ("PyGILState_GetThisThreadState", "PyThreadState_EnterTracing", "PyThreadState_LeaveTracing")
"""What runs code with the thread's trace function held off (Python 3.11 on)."""


def run_python(pid: int, code: str, *, untraced: bool = False) -> bool:
    """Have the main thread of `pid` run `code` (`PyRun_SimpleString`) where that is safe; True if it
    ran before this returned, False if it was queued to run soon after.

    A thread blocked in a system call without the GIL (a sleep, a read, a wait for the GIL) is
    between two pieces of work: the code runs there and then, under the GIL. A thread stopped
    anywhere else may be halfway through an allocation or an object's update, and code run there
    can crash the process (it did, about once in 50 attaches to a busy loop), so the code is queued
    with `Py_AddPendingCall`, which the interpreter runs at its next check between bytecodes; the
    code has to say itself when it has run, and must let no exception out (the interpreter would
    raise SystemError in the program). A call is always waited out, with no time limit of its own:
    cut short, it would return into nothing and crash the process. Every ptrace request must come
    from one thread.

    `untraced`: the code runs with the thread's trace function held off (`PyThreadState_EnterTracing`), or
    not at all. A debugger in the process traces the main thread: with a pause pending on it (debugpy,
    justMyCode off), it would suspend the thread inside the injected code, and the call would never
    return. Code queued to run between bytecodes cannot be held off so: it runs traced."""
    if not supported():
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"attach by pid injects code only on x86-64 Linux, not {platform.machine()}")
    # read before the process is stopped: each file takes tens of ms; an older Python lacks the untraced ones
    python = _python_functions(pid, PYTHON_FUNCTIONS + (UNTRACED_FUNCTIONS if untraced else ()))
    libc = _symbols(pid, "libc.so", ("mmap", "munmap"))
    with _Stopped(pid) as thread:
        if not thread.call(python["Py_IsInitialized"], []) & 0xFFFFFFFF:
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"the Python interpreter of process {pid} is not running "
                             "(starting up or shutting down); attach again in a moment")
        if thread.blocked and not thread.call(python["PyGILState_Check"], []) & 0xFFFFFFFF:
            state = thread.call(python["PyGILState_Ensure"], [])
            tstate = thread.call(python["PyGILState_GetThisThreadState"], []) if untraced else 0
            if untraced:
                thread.call(python["PyThreadState_EnterTracing"], [tstate])
            thread.call(python["PyRun_SimpleString"], [code.encode()])
            if untraced:
                thread.call(python["PyThreadState_LeaveTracing"], [tstate])
            thread.call(python["PyGILState_Release"], [state & 0xFFFFFFFF])
            return True
        text = code.encode() + b"\0"
        page = thread.call(libc["mmap"], [0, len(text), PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, NO_SYSCALL, 0])
        if page == MAP_FAILED:
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} has no memory to spare for the injected code")
        _write(pid, page, text)  # left mapped: the interpreter reads it after this returns
        if ctypes.c_int(thread.call(python["Py_AddPendingCall"], [python["PyRun_SimpleString"], page])).value != 0:
            thread.call(libc["munmap"], [page, len(text)])
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} has too many calls queued for its main "
                             "thread (Py_AddPendingCall refused); try again")
        return False


def ask(pid: int, report: str, wait: float) -> Any:
    """What `pid` answers when it runs `report`, Python code that leaves a JSON value in its variable
    `answer`; None where the process could not be made to answer within `wait` seconds (blocking).

    The answer comes back through a file the process writes in its own /tmp (a container's, or a
    service's PrivateTmp, is apart from ours), in a folder it may write to but not list: the file is
    taken only once whole (renamed into place) and only if the process's own user wrote it. The code
    runs in a namespace of its own, so the program's `__main__` gets no names, and lets no exception
    out; queued (see `run_python`) and run after this gave up, it finds the folder gone and writes nothing."""
    if not supported():
        return None
    theirs = f"/proc/{pid}/root/tmp" if os.path.isdir(f"/proc/{pid}/root/tmp") else None
    with tempfile.TemporaryDirectory(prefix="dap2mcp-ask-", dir=theirs) as ours:
        folder = f"/tmp/{Path(ours).name}" if theirs else ours  # as the process names it
        os.chmod(ours, 0o1733)
        told = Path(ours) / "answer"
        code = "\n".join((
            "answer = None",
            report,
            "import json as _json, os as _os",
            f"with open({folder + '/written'!r}, 'x') as _out:",
            "    _json.dump(answer, _out)",
            f"_os.rename({folder + '/written'!r}, {folder + '/answer'!r})",
        ))
        try:
            run_python(pid, quietly(code), untraced=True)
        except DebugError:
            return None
        deadline = time.monotonic() + wait
        while not (told.exists() and told.stat().st_uid == owner(pid)):  # the process's, no one else's
            if time.monotonic() > deadline:
                return None
            time.sleep(0.02)
        try:
            return json.loads(told.read_text())
        except (OSError, ValueError):
            return None


def quietly(code: str) -> str:
    """`code` run in a namespace of its own, letting nothing out: an exception would reach the program
    (a pending call's raises SystemError there)."""
    return f"try:\n    exec({code!r}, {{}})\nexcept BaseException:\n    pass\n"


def owner(pid: int) -> int | None:
    """The user `pid` runs as (None once it is gone)."""
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None


def runs_python(pid: int) -> bool:
    """Whether `pid` has a Python interpreter in it (its executable or a libpython exports
    `Py_IsInitialized`), looked at without touching the process."""
    candidates = [f"/proc/{pid}/exe"]
    with contextlib.suppress(OSError, DebugError):
        candidates.append(_mapping(pid, "libpython")[2])
    for path in candidates:
        with contextlib.suppress(Exception):  # not ELF, gone, unreadable: not it
            if _exported(path, ("Py_IsInitialized",)):
                return True
    return False


def _python_functions(pid: int, names: tuple[str, ...]) -> dict[str, int]:
    """Where the interpreter's functions lie in `pid`: in its executable (a static build, as Debian's)
    or in the libpython it loaded (a shared build, as pyenv's)."""
    exe = os.readlink(f"/proc/{pid}/exe").removesuffix(" (deleted)")
    for library in (exe, "libpython"):
        with contextlib.suppress(DebugError):
            return _symbols(pid, library, names)
    raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} has no Python interpreter in its executable or a "
                     f"libpython (looked for {', '.join(names)})")


class _Stopped:
    """The main thread of `pid`, attached and stopped; on exit it gets all its registers back and runs on."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.saved = Registers()
        self.vector = _VectorState(pid)
        self.state = "detached"  # then "rest" (stopped, own registers), "call" (running ours), "fault"

    def __enter__(self) -> _Stopped:
        _ptrace(PTRACE_ATTACH, self.pid, what="attach to")
        self.state = "call"  # until it stops, it runs its own code: there is nothing to restore
        try:
            _wait_for(self.pid, signal.SIGSTOP)
            _ptrace(PTRACE_GETREGS, self.pid, None, ctypes.addressof(self.saved), what="read the registers of")
        except BaseException:
            self.__exit__()
            raise
        self.vector.save()
        self.state = "rest"
        return self

    @property
    def blocked(self) -> bool:
        """Whether it was stopped inside a blocking system call."""
        return self.saved.orig_rax != NO_SYSCALL and self.saved.rax in INTERRUPTED

    def call(self, function: int, args: list[int | bytes]) -> int:
        self.state = "call"
        try:
            result = _call(self.pid, self.saved, function, args)
        except DebugError:
            self.state = "fault"  # stopped where it faulted (or gone): let it meet its fault untraced
            raise
        self.state = "rest"
        return result

    def __exit__(self, *exc: object) -> None:
        if self.state == "rest" and processes.pid_alive(self.pid):
            _ptrace(PTRACE_SETREGS, self.pid, None, ctypes.addressof(self.saved), what="restore the registers of")
            self.vector.restore()
        _libc.ptrace(PTRACE_DETACH, self.pid, None, None)


class _VectorState:
    """The thread's FPU, SSE, AVX and AVX-512 registers: the whole XSAVE area where the kernel lets
    it be read and written back (PTRACE_GETREGSET/SETREGSET), else the legacy FPU/SSE area alone.
    Some kernels refuse an XSAVE write (gdb 13's inferior calls fail there); a thread stopped in a
    system call, as a Python main thread mostly is, holds no live vector values anyway."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.xsave = ctypes.create_string_buffer(XSAVE_BYTES)
        self.iov = _IoVec(ctypes.addressof(self.xsave), XSAVE_BYTES)
        self.fpu = ctypes.create_string_buffer(512)
        self.has_xsave = self.has_fpu = False

    def save(self) -> None:
        self.has_xsave = _libc.ptrace(PTRACE_GETREGSET, self.pid, NT_X86_XSTATE, ctypes.addressof(self.iov)) == 0
        self.has_fpu = _libc.ptrace(PTRACE_GETFPREGS, self.pid, None, ctypes.addressof(self.fpu)) == 0

    def restore(self) -> None:
        if self.has_xsave and _libc.ptrace(PTRACE_SETREGSET, self.pid, NT_X86_XSTATE, ctypes.addressof(self.iov)) == 0:
            return
        if self.has_fpu:
            _libc.ptrace(PTRACE_SETFPREGS, self.pid, None, ctypes.addressof(self.fpu))


class _IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]


def _call(pid: int, saved: Registers, function: int, args: list[int | bytes]) -> int:
    """Call `function(*args)` on the stopped thread; byte strings are placed on its stack. Returns rax.
    The return address is 0, so the return itself faults: that SIGSEGV at rip 0 is the call's end."""
    if len(args) > 6:
        raise ValueError("at most six arguments, all in registers")
    data = b"".join(a + b"\0" for a in args if isinstance(a, bytes))
    sp = (saved.rsp - STACK_GAP - len(data)) & ~0xF
    values, cursor = [], sp
    for arg in args:
        if isinstance(arg, bytes):
            values.append(cursor)
            cursor += len(arg) + 1
        else:
            values.append(arg)
    sp -= 16  # the return address at sp + 8 leaves rsp + 8 aligned to 16 at entry, as the ABI wants
    _write(pid, sp, (0).to_bytes(16, "little") + data)
    regs = Registers.from_buffer_copy(saved)
    regs.rip, regs.rsp, regs.rax, regs.orig_rax = function, sp + 8, 0, NO_SYSCALL  # none to restart
    for name, value in zip(("rdi", "rsi", "rdx", "rcx", "r8", "r9"), values, strict=False):
        setattr(regs, name, value)
    _ptrace(PTRACE_SETREGS, pid, None, ctypes.addressof(regs), what="set the registers of")
    _ptrace(PTRACE_CONT, pid, None, None, what="resume")
    while True:
        stopped = _wait_for(pid, None)
        if stopped == signal.SIGSEGV:
            _ptrace(PTRACE_GETREGS, pid, None, ctypes.addressof(regs), what="read the registers of")
            if regs.rip == 0:
                return regs.rax
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} faulted inside the injected call at {regs.rip:#x}")
        _ptrace(PTRACE_CONT, pid, None, stopped, what="resume")  # its own signal, passed on


def _wait_for(pid: int, expected: int | None) -> int:
    """The signal of the next stop (passing on any other than `expected`)."""
    while True:
        _, status = os.waitpid(pid, WALL)
        if not os.WIFSTOPPED(status):
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} ended while code was being injected")
        sig = os.WSTOPSIG(status)
        if expected is None or sig == expected:
            return sig
        _ptrace(PTRACE_CONT, pid, None, sig, what="resume")


def _symbols(pid: int, library: str, names: tuple[str, ...]) -> dict[str, int]:
    """Where each of `names`, defined by the file mapped in `pid` that `library` names, lies in `pid`'s
    memory. The file is read through the mapping itself: a library upgraded since the process
    started is `(deleted)` on disk, but still mapped."""
    base, path, mapped = _mapping(pid, library)
    offsets = _exported(mapped, names)
    if missing := [name for name in names if name not in offsets]:
        raise DebugError(ErrorCode.ADAPTER_FAILED, f"{path} in process {pid} has no symbol {', '.join(missing)}")
    return {name: base + offset for name, offset in offsets.items()}


def _exported(path: str, names: tuple[str, ...]) -> dict[str, int]:
    """Where those of `names` that the ELF file at `path` defines (an executable that embeds Python
    may only import them) lie from the start of the file's first mapping. A position-independent
    file's symbols are offsets from there; a fixed-address executable's are addresses, its first
    segment's among them."""
    with open(path, "rb") as file:
        elf = ELFFile(file)
        table = elf.get_section_by_name(".dynsym")
        first = next((seg for seg in elf.iter_segments() if seg["p_type"] == "PT_LOAD"), None)
        start = first["p_vaddr"] - first["p_offset"] if first else 0
        found = {}
        for name in names:
            symbols = table.get_symbol_by_name(name) if table is not None else None
            defined = [sym for sym in symbols or () if sym["st_shndx"] != "SHN_UNDEF"]
            if defined:
                found[name] = defined[0]["st_value"] - start
        return found


def _mapping(pid: int, library: str) -> tuple[int, str, str]:
    """(load address, path, a path to open it by) of the first mapping of `library` in `pid`: the file
    at that path, or else the first whose name contains it.

    The mapping itself (/proc/PID/map_files, readable with CAP_SYS_ADMIN) is the file the process
    has, even one replaced on disk since ("(deleted)"); without that capability the path is read,
    unless it was replaced: its symbols would then be another build's, and calling one would jump
    to a wrong address in the process."""
    name = Path(library).name
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) < 6 or int(fields[2], 16) != 0:
            continue
        if fields[5].removesuffix(" (deleted)") == library if library.startswith("/") else name in Path(fields[5]).name:
            mapped = f"/proc/{pid}/map_files/{fields[0]}"
            if not os.access(mapped, os.R_OK):
                if fields[5].endswith(" (deleted)"):
                    raise DebugError(ErrorCode.ADAPTER_FAILED, f"{fields[5]} in process {pid} was replaced on disk "
                                     "since the process started, and the mapped copy cannot be read without "
                                     "CAP_SYS_ADMIN: restart the process, or run dap2mcp as root")
                mapped = f"/proc/{pid}/root{fields[5]}"
            return int(fields[0].split("-")[0], 16), fields[5], mapped
    raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} has no {name} loaded")


def _write(pid: int, address: int, data: bytes) -> None:
    with open(f"/proc/{pid}/mem", "r+b", buffering=0) as mem:
        mem.seek(address)
        mem.write(data)


def _ptrace(request: int, pid: int, address: int | None = None, data: int | None = None, *, what: str) -> None:
    if _libc.ptrace(request, pid, address, data) == -1:
        code = ctypes.get_errno()
        why = {errno.EPERM: "permission denied (another debugger on it, or no CAP_SYS_PTRACE)",
               errno.ESRCH: "no such process, or it is not stopped"}.get(code, os.strerror(code))
        raise DebugError(ErrorCode.ADAPTER_FAILED, f"cannot {what} process {pid}: {why}")
