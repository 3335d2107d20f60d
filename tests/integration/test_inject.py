"""Code injected into a live Python process for attach by pid (adapters/inject.py), against real
interpreters: pyenv's shared build (symbols in libpython) and Debian's fixed-address executable."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dap2mcp.adapters import inject

PROGRAMS = Path(__file__).parent.parent / "programs"
INTERPRETERS = [sys.executable, "/usr/bin/python3"]
GUARD = 20
"""A hang guard for each wait below (a program's start, the injected code's run): each takes under 0.2 s."""


@pytest.fixture(params=INTERPRETERS, ids=["shared-libpython", "debian-executable"])
def python(request: pytest.FixtureRequest) -> str:
    return request.param


@contextlib.contextmanager
def started(argv: list[str], ready: Path, **popen: Any) -> Iterator[subprocess.Popen[bytes]]:
    """The program, once it has written `ready`; killed afterwards, whatever the test did."""
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, **popen)
    try:
        deadline = time.monotonic() + GUARD
        while not (ready.exists() and ready.read_text().strip()):
            assert proc.poll() is None and time.monotonic() < deadline, "the program did not get going"
            time.sleep(0.02)
        yield proc
    finally:
        proc.kill()
        proc.wait()


def logged_calls(log: Path) -> list[tuple[float, ...]]:
    """(began, ended) of each C call logged so far; a line still being written is left out."""
    return [tuple(map(float, line.split())) for line in log.read_text().split("\n")[:-1]]


def in_a_sleep(pid: int) -> bool:
    """Whether the main thread is blocked in clock_nanosleep (system call 230 on x86-64)."""
    return Path(f"/proc/{pid}/syscall").read_text().split()[0] == "230"


def ran_at(out: Path) -> float:
    deadline = time.monotonic() + GUARD
    while not (out.exists() and out.read_text()):
        assert time.monotonic() < deadline, "the injected code never ran"
        time.sleep(0.01)
    return float(out.read_text())


@pytest.mark.parametrize("call", ["regex", "sleep"])
def test_code_for_a_thread_inside_c_code_runs_between_bytecodes_not_in_the_middle(python: str, call: str,
                                                                                  tmp_path: Path):
    """Run wherever the thread was stopped, the code would run halfway through the C call (as it ran
    halfway through allocations before, crashing about one attach in 50): in a regex, in user space;
    in a sleep that holds the GIL, blocked in a system call, and still in the middle of C code."""
    log, out = tmp_path / "calls.log", tmp_path / "ran"
    with started([python, str(PROGRAMS / "in_c.py"), str(log), call], log) as proc:
        code = f"import time; open({str(out)!r}, 'w').write(repr(time.monotonic()))"
        assert inject.run_python(proc.pid, code) is False, "queued, not run on the spot"
        moment = ran_at(out)
        deadline = time.monotonic() + GUARD
        calls = logged_calls(log)
        while not any(began > moment for began, _ in calls):
            assert proc.poll() is None, "the process survives"
            assert time.monotonic() < deadline, "the program goes on after the code ran"
            time.sleep(0.05)
            calls = logged_calls(log)
        # the call's end is stamped by the next line, after the interpreter's check that ran the code
        inside = [(began, ended) for began, ended in calls if began < moment < ended - 0.01]
        assert not inside, f"the code ran at {moment}, inside a C call from {inside[0][0]} to {inside[0][1]}"


def test_code_for_a_thread_blocked_in_a_sleep_runs_at_once_and_the_sleep_goes_on(python: str, tmp_path: Path):
    ready, out = tmp_path / "ready", tmp_path / "ran"
    sleeper = f"import time\nopen({str(ready)!r}, 'w').write('up')\nwhile True:\n    time.sleep(3600)\n"
    with started([python, "-c", sleeper], ready) as proc:
        deadline = time.monotonic() + GUARD
        while not in_a_sleep(proc.pid):
            assert time.monotonic() < deadline, "the program never went to sleep"
            time.sleep(0.02)
        code = f"import time; open({str(out)!r}, 'w').write(repr(time.monotonic()))"
        assert inject.run_python(proc.pid, code) is True, "run while its thread waits in the sleep"
        assert out.read_text(), "and already done"
        time.sleep(0.1)
        assert in_a_sleep(proc.pid) and proc.poll() is None, "back in its sleep"


def test_attach_to_a_thread_that_stays_in_c_code_says_why_in_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The code waits for the thread's next bytecode; a thread in one C call for long never gets
    there in time, and the attach says so instead of running out the handshake's 30 s. The code
    left queued does nothing when it runs at last: the program goes on untouched."""
    from dap2mcp.adapters import python as debugpy_profile
    from dap2mcp.errors import DebugError, ErrorCode

    ready = tmp_path / "ready"
    stuck = f"import re\nopen({str(ready)!r}, 'w').write('up')\nre.match(r'(a+)+$', 'a' * 27 + '!')\nprint('done')\n"
    with started([sys.executable, "-c", stuck], ready, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        monkeypatch.setattr(debugpy_profile, "INJECTED_CODE_WAIT", 0.5)
        with pytest.raises(DebugError) as caught:
            debugpy_profile._connect_back(proc.pid, "127.0.0.1", 9)
        assert caught.value.code == ErrorCode.TIMEOUT and "inside a long call into C code" in caught.value.message
        assert proc.poll() is None, "still in its regex"
        out, err = proc.communicate(timeout=120)
        assert (proc.returncode, out, err) == (0, b"done\n", b""), "no attach, no complaint from debugpy"


def test_an_interpreter_only_imported_is_not_taken_for_one(tmp_path: Path):
    """gdb embeds Python: its executable imports PyGILState_Ensure from libpython, whose copy is the
    function; the import's entry (value 0) would be a call to the executable's first byte."""
    from elftools.elf.elffile import ELFFile

    gdb = "/usr/bin/gdb"
    with open(gdb, "rb") as file:
        imported = ELFFile(file).get_section_by_name(".dynsym").get_symbol_by_name("PyGILState_Ensure")
    assert imported and imported[0]["st_shndx"] == "SHN_UNDEF"
    assert inject._exported(gdb, ("PyGILState_Ensure", "Py_IsInitialized")) == {}
    libpython = next(Path("/usr/lib/x86_64-linux-gnu").glob("libpython3*.so.1.0"))
    assert set(inject._exported(str(libpython), ("PyGILState_Ensure", "Py_IsInitialized"))) == {
        "PyGILState_Ensure", "Py_IsInitialized"}


@pytest.mark.parametrize("program", ["import time\nwhile True:\n    time.sleep(3600)\n",
                                     "while True:\n    pass\n"], ids=["sleeping", "busy"])
def test_a_process_with_a_tmp_of_its_own_reports_back(program: str, tmp_path: Path):
    """A container or a service with PrivateTmp sees another /tmp than dap2mcp: the code's report is
    written into the process's own /tmp. Here no adapter listens, so debugpy fails inside the
    process, and that failure is what must come back, in time, whichever way the code ran."""
    from dap2mcp.adapters import python as debugpy_profile
    from dap2mcp.errors import DebugError, ErrorCode

    # the interpreter itself, not the venv's link to it: a checkout under /tmp is hidden from the process
    private = f"mount -t tmpfs none /tmp && exec {os.path.realpath(sys.executable)} -c '{program}'"
    proc = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "sh", "-c", private],
                            stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + GUARD
        while not Path(f"/proc/{proc.pid}/exe").resolve().name.startswith("python"):
            assert proc.poll() is None and time.monotonic() < deadline, "the program did not start"
            time.sleep(0.02)
        time.sleep(0.3)
        assert os.stat(f"/proc/{proc.pid}/ns/mnt").st_ino != os.stat("/proc/self/ns/mnt").st_ino
        with pytest.raises(DebugError) as caught:
            debugpy_profile._connect_back(proc.pid, "127.0.0.1", 9)
        # from here: ConnectionRefusedError; from a checkout under /tmp, which the process cannot see:
        # ModuleNotFoundError for debugpy's module. Either way, the process's own report.
        assert caught.value.code == ErrorCode.ADAPTER_FAILED, caught.value.message
        assert f"debugpy could not start inside process {proc.pid}: " in caught.value.message
        assert any(name in caught.value.message for name in ("ConnectionRefusedError", "ModuleNotFoundError"))
        assert proc.poll() is None
    finally:
        proc.kill()
        proc.wait()
