"""Reaping: real processes, among them a zombie that only its own parent can reap."""

from __future__ import annotations

import asyncio
import subprocess
import sys

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
