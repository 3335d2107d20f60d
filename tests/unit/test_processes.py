"""Reaping: real processes, among them a zombie that only its own parent can reap."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

import psutil

from dap2mcp import processes

# The child forks a grandchild that exits at once; the child never waits for it, so it stays a zombie
# (as debugpy's launcher does once its adapter is gone), then prints the grandchild's pid.
ZOMBIE_MAKER = "import os, time\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nprint(pid, flush=True)\ntime.sleep(60)\n"


async def test_kill_tree_counts_a_zombie_descendant_as_ended():
    proc = await processes.spawn([sys.executable, "-c", ZOMBIE_MAKER], stdin=subprocess.DEVNULL)
    try:
        zombie = psutil.Process(int((await proc.stdout.readline()).decode()))
        for _ in range(100):
            if zombie.status() == psutil.STATUS_ZOMBIE:
                break
            await asyncio.sleep(0.01)
        assert zombie.status() == psutil.STATUS_ZOMBIE
        assert await processes._outlasting([zombie], 2.0) == []  # psutil.wait_procs would wait it out
        await processes.kill_tree(proc)
        assert proc.returncode is not None
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_kill_tree_ends_descendants_that_ignore_sigterm():
    stubborn = "import signal, subprocess, sys, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n" \
               "child = subprocess.Popen([sys.executable, '-c', 'import signal, time; signal.signal(signal.SIGTERM, " \
               "signal.SIG_IGN); time.sleep(60)'])\nprint(child.pid, flush=True)\ntime.sleep(60)\n"
    proc = await processes.spawn([sys.executable, "-c", stubborn], stdin=subprocess.DEVNULL)
    grandchild = psutil.Process(int((await proc.stdout.readline()).decode()))
    await processes.kill_tree(proc, grace=0.3)
    assert proc.returncode is not None
    assert not processes._running(grandchild)


# Connects to the test's listener with Nagle's algorithm on (Python's default), prints its socket's descriptor,
# then, at each line on stdin, whether TCP_NODELAY is set on it now.
NAGLED = ("import socket, sys\ns = socket.create_connection(('127.0.0.1', int(sys.argv[1])))\n"
          "print(s.fileno(), flush=True)\n"
          "for _ in sys.stdin:\n    print(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY), flush=True)\n")


async def test_set_tcp_nodelay_changes_the_socket_another_process_holds():
    server = await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)
    proc = await processes.spawn([sys.executable, "-c", NAGLED, str(server.sockets[0].getsockname()[1])])
    try:
        fd = int(await proc.stdout.readline())

        async def nodelay_now() -> int:
            proc.stdin.write(b"?\n")
            return int(await proc.stdout.readline())

        assert await nodelay_now() == 0
        assert processes.set_tcp_nodelay(proc.pid, fd) is True
        assert await nodelay_now() != 0
        assert processes.set_tcp_nodelay(proc.pid, 0) is False  # its stdin: a pipe, not a socket
        assert processes.set_tcp_nodelay(proc.pid, 999) is False  # no such descriptor
    finally:
        await processes.kill_tree(proc)
        server.close()


def test_set_tcp_nodelay_on_a_process_that_is_gone_is_false():
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    assert processes.set_tcp_nodelay(int(proc.stdout), 3) is False


def test_bytes_written_counts_what_a_process_writes_and_is_none_for_no_process() -> None:
    """A stop needs no output mark where the program wrote nothing since the last one came back: the count
    must move with a write to a pipe and not without one."""
    read_end, write_end = os.pipe()
    try:
        before = processes.bytes_written(os.getpid())
        assert before is not None
        os.write(write_end, b"x" * 1000)
        after = processes.bytes_written(os.getpid())
        assert after is not None and after - before >= 1000
        assert processes.bytes_written(2**22 + 12345) is None
    finally:
        os.close(read_end)
        os.close(write_end)


def test_what_waits_unread_in_a_processs_pipes_and_whether_it_has_children_are_read_from_proc() -> None:
    """A child process's writes and data still in the pipe are what the count of bytes written misses: a stop
    writes an output mark where either is there."""
    writer = subprocess.Popen([sys.executable, "-c", "import sys, time; sys.stdout.write('x' * 100); sys.stdout.flush();"
                               " import subprocess; child = subprocess.Popen(['sleep', '30']); time.sleep(30)"],
                              stdout=subprocess.PIPE)
    try:
        assert writer.stdout is not None
        deadline = time.monotonic() + 10  # a hang guard: the child starts in 20 ms
        while processes.unread_in_pipes(writer.pid) != 100 or not processes.has_children(writer.pid):
            assert time.monotonic() < deadline, (processes.unread_in_pipes(writer.pid), processes.has_children(writer.pid))
            time.sleep(0.05)
        assert writer.stdout.read1(100) == b"x" * 100
        assert processes.unread_in_pipes(writer.pid) == 0
        (sleeper,) = psutil.Process(writer.pid).children()
        assert not processes.has_children(sleeper.pid)
        assert processes.unread_in_pipes(sleeper.pid) == 0  # its stdout is the same pipe, now empty
    finally:
        for child in psutil.Process(writer.pid).children():
            child.kill()
        writer.kill()
        writer.wait()
