"""Run Python code inside a live Python process, for attach by pid, with ptrace alone.

debugpy's own injector drives gdb through two inferior calls (`dlopen` of pydevd's attach library,
then its `DoAttach`). gdb saves and restores the whole XSAVE area around such calls, and some
kernels refuse that write ("Couldn't write extended state status"), so attach by pid fails there
with any gdb-based client. The same two calls made here need only the general registers and the
legacy FPU/SSE area, which every kernel lets a tracer write back.

Only the main thread is stopped; the code runs on it, and it resumes where it was (a system call
it was blocked in is restarted by the kernel, as after any signal). x86-64 Linux only.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import platform
import signal
import time
from pathlib import Path

from elftools.elf.elffile import ELFFile

from ..errors import DebugError, ErrorCode

PTRACE_GETREGS, PTRACE_SETREGS = 12, 13
PTRACE_GETFPREGS, PTRACE_SETFPREGS = 14, 15
PTRACE_ATTACH, PTRACE_DETACH, PTRACE_CONT = 16, 17, 7
WALL = 0x40000000
RTLD_NOW = 2
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


def run_python(pid: int, library: str, code: str, timeout: float = 60.0) -> None:
    """Load `library` (pydevd's attach_linux_amd64.so) into `pid` and call its `DoAttach(0, code, 0)`,
    which runs `code` under the GIL. Blocks; ptrace requests must all come from one thread."""
    if not supported():
        raise DebugError(ErrorCode.NOT_SUPPORTED, f"attach by pid injects code only on x86-64 Linux, not {platform.machine()}")
    with _Stopped(pid, time.monotonic() + timeout) as thread:
        handle = thread.call(_symbol(pid, "libc.so", "dlopen"), [library.encode(), RTLD_NOW])
        if handle == 0:
            reason = _c_string(pid, thread.call(_symbol(pid, "libc.so", "dlerror"), []))
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} could not load {library}: {reason}")
        status = ctypes.c_int(thread.call(_symbol(pid, library, "DoAttach"), [0, code.encode(), 0])).value
        if status != 0:
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"the code injected into process {pid} failed "
                             f"(DoAttach returned {status}); is it a Python process?")


class _Stopped:
    """The main thread of `pid`, attached and stopped; on exit it gets its registers back and runs on."""

    def __init__(self, pid: int, deadline: float) -> None:
        self.pid, self.deadline = pid, deadline
        self.saved, self.fpu, self.has_fpu = Registers(), ctypes.create_string_buffer(512), False
        self.state = "detached"  # then "rest" (stopped, own registers), "call" (running ours), "fault"

    def __enter__(self) -> _Stopped:
        _ptrace(PTRACE_ATTACH, self.pid, what="attach to")
        self.state = "call"  # until it stops, it runs its own code: there is nothing to restore
        try:
            _wait_for(self.pid, signal.SIGSTOP, time.monotonic() + 10)
            _ptrace(PTRACE_GETREGS, self.pid, None, ctypes.addressof(self.saved), what="read the registers of")
        except BaseException:
            self.__exit__()
            raise
        self.has_fpu = _libc.ptrace(PTRACE_GETFPREGS, self.pid, None, ctypes.addressof(self.fpu)) == 0
        self.state = "rest"
        return self

    def call(self, function: int, args: list[int | bytes]) -> int:
        self.state = "call"
        try:
            result = _call(self.pid, self.saved, function, args, self.deadline)
        except DebugError as exc:
            if exc.code != ErrorCode.TIMEOUT:
                self.state = "fault"  # stopped where it faulted (or gone): let it meet its fault untraced
            raise
        self.state = "rest"
        return result

    def __exit__(self, *exc: object) -> None:
        if not _alive(self.pid):
            return
        if self.state == "rest":
            _ptrace(PTRACE_SETREGS, self.pid, None, ctypes.addressof(self.saved), what="restore the registers of")
            if self.has_fpu:
                _libc.ptrace(PTRACE_SETFPREGS, self.pid, None, ctypes.addressof(self.fpu))
        elif self.state == "call":  # timed out while running: only a stopped tracee can be let go
            os.kill(self.pid, signal.SIGSTOP)
            with contextlib.suppress(DebugError):
                _wait_for(self.pid, signal.SIGSTOP, time.monotonic() + 5)
        _libc.ptrace(PTRACE_DETACH, self.pid, None, None)


def _call(pid: int, saved: Registers, function: int, args: list[int | bytes], deadline: float) -> int:
    """Call `function(*args)` on the stopped thread; byte strings are placed on its stack. Returns rax.
    The return address is 0, so the return itself faults: that SIGSEGV at rip 0 is the call's end."""
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
    regs.rip, regs.rsp, regs.rax, regs.orig_rax = function, sp + 8, 0, 2**64 - 1  # -1: no system call to restart
    for name, value in zip(("rdi", "rsi", "rdx"), values, strict=False):
        setattr(regs, name, value)
    _ptrace(PTRACE_SETREGS, pid, None, ctypes.addressof(regs), what="set the registers of")
    _ptrace(PTRACE_CONT, pid, None, None, what="resume")
    while True:
        stopped = _wait_for(pid, None, deadline)
        if stopped == signal.SIGSEGV:
            _ptrace(PTRACE_GETREGS, pid, None, ctypes.addressof(regs), what="read the registers of")
            if regs.rip == 0:
                return regs.rax
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} faulted inside the injected call at {regs.rip:#x}")
        _ptrace(PTRACE_CONT, pid, None, stopped, what="resume")  # its own signal, passed on


def _wait_for(pid: int, expected: int | None, deadline: float) -> int:
    """The signal of the next stop (passing on any other than `expected`)."""
    while True:
        while (left := deadline - time.monotonic()) > 0:
            waited, status = os.waitpid(pid, os.WNOHANG | WALL)
            if waited:
                break
            time.sleep(min(0.002, left))
        else:
            raise DebugError(ErrorCode.TIMEOUT, f"process {pid} did not get through the injected call in time")
        if not os.WIFSTOPPED(status):
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} ended while code was being injected")
        sig = os.WSTOPSIG(status)
        if expected is None or sig == expected:
            return sig
        _ptrace(PTRACE_CONT, pid, None, sig, what="resume")


def _symbol(pid: int, library: str, name: str) -> int:
    """Where `name` of the shared object whose path contains `library` lies in `pid`'s memory."""
    base, path = _mapping(pid, library)
    with open(f"/proc/{pid}/root{path}", "rb") as file:
        table = ELFFile(file).get_section_by_name(".dynsym")
        found = table.get_symbol_by_name(name) if table is not None else None
        if not found:
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"{path} in process {pid} has no symbol {name}")
        return base + found[0]["st_value"]


def _mapping(pid: int, library: str) -> tuple[int, str]:
    name = Path(library).name
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and int(fields[2], 16) == 0 and name in Path(fields[5]).name:
            return int(fields[0].split("-")[0], 16), fields[5]
    raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} has no {name} loaded")


def _write(pid: int, address: int, data: bytes) -> None:
    with open(f"/proc/{pid}/mem", "r+b", buffering=0) as mem:
        mem.seek(address)
        mem.write(data)


def _c_string(pid: int, address: int) -> str:
    if not address:
        return "no reason given"
    with open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
        mem.seek(address)
        return mem.read(400).split(b"\0")[0].decode(errors="replace")


def _alive(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    return False


def _ptrace(request: int, pid: int, address: int | None = None, data: int | None = None, *, what: str) -> None:
    if _libc.ptrace(request, pid, address, data) == -1:
        code = ctypes.get_errno()
        why = {errno.EPERM: "permission denied (another debugger on it, or no CAP_SYS_PTRACE)",
               errno.ESRCH: "no such process, or it is not stopped"}.get(code, os.strerror(code))
        raise DebugError(ErrorCode.ADAPTER_FAILED, f"cannot {what} process {pid}: {why}")
