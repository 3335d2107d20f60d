"""Child processes that never outlive the server and never touch its stdout.

On stdio the server's stdout is the MCP channel, so every child gets its own pipes.
Each child starts in its own process group and with a parent-death signal, so that even a
server killed with SIGKILL leaves nothing behind; `kill_tree` reaps a child and every
descendant it spawned (debugpy's launcher and debuggee, a compiler's subprocesses).
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import ctypes
import fcntl
import os
import signal
import socket
import stat
import subprocess
import termios
from collections.abc import Mapping, Sequence

import psutil

_PR_SET_PDEATHSIG = 1


def killed_by(signum: int) -> int:
    """The exit code a shell reports for a process a signal killed, which is what an agent knows."""
    return 128 + signum


def killing_signal(code: int) -> signal.Signals | None:
    """The signal an exit code says killed the process, read as a shell writes it (`killed_by`); None for
    an exit code of the program's own choosing."""
    try:
        return signal.Signals(code - 128) if code > 128 else None
    except ValueError:
        return None


def child_setup() -> None:  # runs in the child between fork and exec
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


async def spawn(
    argv: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    stdin: int = subprocess.PIPE,
    stdout: int = subprocess.PIPE,
    stderr: int = subprocess.PIPE,
) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *argv,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        env=dict(env) if env is not None else None,
        cwd=cwd,
        start_new_session=True,
        preexec_fn=child_setup,
    )


def descendants(pid: int) -> list[psutil.Process]:
    """Children of `pid`, and every process still in the session it leads: a grandchild whose
    parent already exited has been re-parented away, but it keeps the session id."""
    found: dict[int, psutil.Process] = {}
    with contextlib.suppress(psutil.Error):
        found = {p.pid: p for p in psutil.Process(pid).children(recursive=True)}
    for other in psutil.pids():
        if other == pid or other in found:
            continue
        with contextlib.suppress(OSError, psutil.Error):
            if os.getsid(other) == pid:
                found[other] = psutil.Process(other)
    return list(found.values())


async def kill_tree(proc: asyncio.subprocess.Process, *, grace: float = 1.0) -> None:
    """Terminate a child and all its descendants, killing whatever is left after `grace` seconds.

    Everything is ended before the child is waited for: asyncio's `wait()` returns only once the
    child's pipes close, and a descendant that ignores SIGTERM may hold them (a Go program writes
    to Delve's own stdout). The descendants are not our children, so they are polled.
    """
    victims = descendants(proc.pid)
    with contextlib.suppress(psutil.Error):
        if proc.returncode is None:
            victims.append(psutil.Process(proc.pid))
    for victim in victims:
        with contextlib.suppress(psutil.Error):
            victim.terminate()
    still = await _outlasting(victims, grace)
    for victim in still:
        with contextlib.suppress(psutil.Error):
            victim.kill()
    if still:
        await _outlasting(still, grace)
    with contextlib.suppress(TimeoutError):  # reaped by now; the pipes close with their last holder
        await asyncio.wait_for(proc.wait(), grace)


async def _outlasting(victims: list[psutil.Process], limit: float) -> list[psutil.Process]:
    """Those of `victims` still running after `limit` seconds. A zombie has ended: it waits for its
    own parent to reap it (debugpy's launcher, once the adapter is gone, waits for init), and
    waiting for it to vanish would add the whole grace period to every `stop`."""
    deadline = asyncio.get_running_loop().time() + limit
    while True:
        alive = [v for v in victims if _running(v)]
        if not alive or asyncio.get_running_loop().time() >= deadline:
            return alive
        await asyncio.sleep(0.02)


def _running(process: psutil.Process) -> bool:
    """Still running, and still the same process (its pid not reused), not a zombie."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def running_below(pid: int, depth: int) -> list[psutil.Process]:
    """The processes running (not zombies) `depth` or more generations below `pid`: one scan of the
    process table, however deep the tree."""
    try:
        below = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []
    parents = {}
    for process in below:
        with contextlib.suppress(psutil.Error):
            parents[process.pid] = process.ppid()

    def depth_of(child: int) -> int:
        steps = 0
        while child != pid:
            if child not in parents or steps > len(parents):  # its parent is gone: no longer below `pid`
                return -1
            child, steps = parents[child], steps + 1
        return steps

    return [p for p in below if depth_of(p.pid) >= depth and _running(p)]


def exec_after_fork(pid: int) -> bool:
    """Whether `pid` runs a program of its own (it called exec after its fork) rather than a copy of its parent:
    a fork keeps its parent's address space, stack included, where exec lays out a new one (at a random place,
    the kernel's default). Where the stacks cannot be read, taken for a fork."""
    try:
        parent = psutil.Process(pid).ppid()
        return _stack_start(pid) not in (None, _stack_start(parent))
    except psutil.Error:
        return False


def _stack_start(pid: int) -> int | None:
    """`startstack` of /proc/PID/stat (0, or unreadable, where the process is not ours to look into)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return int(fields[25]) or None
    except (OSError, IndexError, ValueError):
        return None


def pid_alive(pid: int) -> bool:
    try:
        return _running(psutil.Process(pid))
    except (psutil.Error, ValueError):  # ValueError: not a valid pid at all
        return False


def bytes_written(pid: int) -> int | None:
    """How many bytes process `pid` has handed to `write` and its kind so far (`wchar` of /proc/PID/io, all
    threads; a socket's `send` is not counted): unchanged, it wrote nothing. None if unreadable."""
    try:
        with open(f"/proc/{pid}/io", encoding="ascii") as io:
            return next((int(line.split()[1]) for line in io if line.startswith("wchar:")), None)
    except (OSError, ValueError):
        return None


def has_children(pid: int) -> bool:
    """Whether process `pid` has a child process now (True where that cannot be read: assume the worse)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        for task in tasks:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as children:
                if children.read().strip():
                    return True
        return False
    except OSError:
        return True


def unread_in_pipes(pid: int, fds: tuple[int, ...] = (1, 2)) -> int | None:
    """How many bytes wait unread in the pipes on process `pid`'s `fds` (what it wrote that its reader has not
    taken yet); None if that cannot be read."""
    total = 0
    for fd in fds:
        try:
            if not stat.S_ISFIFO(os.stat(f"/proc/{pid}/fd/{fd}").st_mode):
                continue
            opened = os.open(f"/proc/{pid}/fd/{fd}", os.O_RDONLY | os.O_NONBLOCK)  # read from, never
        except OSError:
            return None
        try:
            count = array.array("i", [0])
            fcntl.ioctl(opened, termios.FIONREAD, count)
            total += count[0]
        except OSError:
            return None
        finally:
            os.close(opened)
    return total


def environ_with(extra: Mapping[str, str] | None) -> dict[str, str]:
    env = dict(os.environ)
    env.update(extra or {})
    return env


def own_family() -> set[int]:
    """This server, the processes it runs under and the ones it started: none of them may be debugged
    from here, since stopping one stops the debugger (or what talks to it)."""
    family = {os.getpid()}
    with contextlib.suppress(psutil.Error):
        me = psutil.Process()
        family |= {p.pid for p in me.parents()} | {p.pid for p in me.children(recursive=True)}
    return family


_SYS_PIDFD_GETFD = 438  # the same number on every Linux architecture (the unified syscall table)


def set_tcp_nodelay(pid: int, fd: int) -> bool:
    """Turn on TCP_NODELAY on a socket another process holds (its descriptor `fd`): a socket option belongs to
    the socket, so setting it on a copy of the descriptor (pidfd_getfd, Linux 5.6) sets it for its owner. For
    a peer whose code cannot be changed, such as Node's inspector. Needs the right to ptrace the process (a
    descendant, or any process of the same user where Yama allows it); False where it cannot be done."""
    if (pidfd := open_pidfd(pid)) is None:
        return False
    try:
        copy = ctypes.CDLL(None, use_errno=True).syscall(_SYS_PIDFD_GETFD, pidfd, fd, 0)
    finally:
        os.close(pidfd)
    if copy < 0:
        return False
    try:
        sock = socket.socket(fileno=copy)
    except OSError:  # the descriptor was reused for something else meanwhile
        os.close(copy)
        return False
    with sock:
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:  # a socket, but not TCP
            return False
    return True


PIDFD_GET_INFO = 0xC040FF0B
"""`_IOWR(0xFF, 11, struct pidfd_info)` with the structure's first version, 64 bytes (linux/pidfd.h, Linux 6.15)."""
PIDFD_INFO_EXIT = 1 << 3
_PIDFD_INFO_SIZE, _PIDFD_EXIT_CODE_AT = 64, 60


def open_pidfd(pid: int) -> int | None:
    """A pidfd for `pid` (Linux 5.3), to learn of its end whoever its parent is; None if it is gone (or no such
    call). Open it while the process is known to live: a pid can name another process later."""
    try:
        return os.pidfd_open(pid)
    except (OSError, AttributeError):
        return None


def exit_code(pidfd: int, pid: int) -> int | None:
    """The exit code, as a shell reports it (`killed_by` for a signal), of the ended process `pidfd` holds, a
    process that is not this server's child (its parent waits for it, at once as `subprocess` and
    `multiprocessing` do, so `waitpid` is not ours to call and /proc is gone by the time it is read). None where
    it cannot be said: the process runs on, or it was reaped on a Linux older than 6.15.

    Once its parent has reaped it, the kernel keeps its status for whoever holds a pidfd of it (`PIDFD_GET_INFO`
    with `PIDFD_INFO_EXIT`, Linux 6.15). Until then it is a zombie, whose status /proc/<pid>/stat shows (field
    52, Linux 3.5): that is read, and the pidfd asked again, since it may have been reaped meanwhile."""
    status = _reaped_status(pidfd)
    if status is None:
        status = _zombie_status(pid)
        if (reaped := _reaped_status(pidfd)) is not None:  # reaped while /proc was read: the kernel's word holds
            status = reaped
    if status is None:
        return None
    return killed_by(os.WTERMSIG(status)) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def _reaped_status(pidfd: int) -> int | None:
    """The wait status the kernel kept for a reaped process, None while it is not reaped (or no such ioctl)."""
    info = bytearray(PIDFD_INFO_EXIT.to_bytes(8, "little") + bytes(_PIDFD_INFO_SIZE - 8))
    try:
        fcntl.ioctl(pidfd, PIDFD_GET_INFO, info)
    except OSError:  # ENOTTY/EINVAL before Linux 6.15
        return None
    if not int.from_bytes(info[:8], "little") & PIDFD_INFO_EXIT:
        return None
    return int.from_bytes(info[_PIDFD_EXIT_CODE_AT:_PIDFD_EXIT_CODE_AT + 4], "little", signed=True)


def _zombie_status(pid: int) -> int | None:
    """A zombie's wait status from /proc/<pid>/stat; None if `pid` is no zombie (running, or reaped)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()  # the name, in parentheses, may hold anything
    except (OSError, IndexError):
        return None
    if fields[0] != b"Z" or len(fields) < 50:
        return None
    return int(fields[49])  # field 52, counted from the state's 3
