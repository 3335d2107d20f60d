"""What the benchmarks share: the machine they ran on, leftover processes, marked lines, JSON out."""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

import psutil


def machine(*packages: str) -> dict[str, Any]:
    cpu = "unknown"
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as handle:
        cpu = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), cpu)
    return {
        "nproc": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        **{package: importlib.metadata.version(package) for package in packages},
        "kernel": f"{platform.system()} {platform.release()}",
    }


def marked_line(path: Path, marker: str) -> int:
    for number, text in enumerate(path.read_text().splitlines(), 1):
        if marker in text:
            return number
    raise SystemExit(f"no line marked {marker!r} in {path}")


def kill_leftovers() -> int:
    """Kill this process's descendants that outlived the run (there should be none); how many."""
    with contextlib.suppress(psutil.Error):
        stray = psutil.Process().children(recursive=True)
        for proc in stray:
            with contextlib.suppress(psutil.Error):
                proc.kill()
        if stray:
            print(f"warning: killed {len(stray)} leftover child process(es): {[p.pid for p in stray]}",
                  file=sys.stderr)
        return len(stray)
    return 0


def write_json(path: str | None, data: dict[str, Any]) -> None:
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(data, indent=2) + "\n")
        print(f"\nwrote {path}")
