"""Every thread of a running Python program and where it is, read by the process itself (code injected
as for an attach by pid), for what debugpy cannot show: a thread blocked inside a call into C (a lock's
acquire, a sleep, a read) that pydevd cannot suspend, and the library frames justMyCode hides.

The process lists its threads (`threading.enumerate`, less pydevd's own) with their frames
(`sys._current_frames`), each thread with pydevd's id for it, which the agent names it by; the kernel
then says which of them are blocked (`thread_states.blocked_threads`)."""

from __future__ import annotations

from typing import Any

from . import inject
from .thread_states import StackLine, ThreadReport, ThreadState, Wait, blocked_threads

REPORT = """
import linecache, sys, threading

def _frames(frame, limit):
    shown, depth = [], 0
    while frame is not None and depth < 10000:
        code = frame.f_code
        if frame.f_globals.get('__name__', '').startswith(('pydevd', '_pydev', 'debugpy')):
            frame = frame.f_back  # pydevd's: the loop a suspended thread waits in, its wrapper of each thread
            continue
        if depth < limit:
            text = linecache.getline(code.co_filename, frame.f_lineno).strip()[:200]
            shown.append([code.co_name, code.co_filename, frame.f_lineno, text])
        depth += 1
        if frame.f_globals.get('__name__') == '__main__' and code.co_filename.startswith('/'):
            break  # the program's outermost frame: what called it is the launcher's
        frame = frame.f_back
    return shown, depth

def _dap_id(thread):
    try:
        constants = sys.modules['_pydevd_bundle.pydevd_constants']
        schema = sys.modules['_pydevd_bundle._debug_adapter.pydevd_base_schema']
        return schema.BaseSchema._translate_id_to_dap(constants.get_thread_id(thread))
    except Exception:
        return None

def _report(limit):
    current = sys._current_frames()
    here = threading.get_ident()
    threads = []
    for thread in threading.enumerate():  # the main thread first, then in the order they started
        ident, frame = thread.ident, current.get(thread.ident)
        if frame is None or getattr(thread, 'is_pydev_daemon_thread', False) or getattr(thread, 'pydev_do_not_trace', False):
            continue  # pydevd's own, or not yet (or no longer) running
        if ident == here:
            frame = sys._getframe()
            for _ in range(3):  # this function's frame, this code's and the injector's
                frame = frame.f_back if frame is not None else None
        info = getattr(thread, 'additional_info', None)
        shown, depth = _frames(frame, limit)
        threads.append({'name': thread.name, 'ident': ident, 'native': getattr(thread, 'native_id', None),
                        'id': _dap_id(thread), 'stopped': bool(getattr(info, 'is_in_wait_loop', False)),
                        'frames': shown, 'depth': depth})
    return threads

answer = _report({limit})
"""


def read(pid: int, max_frames: int, wait: float) -> list[ThreadReport] | None:
    """The threads of Python process `pid` with their `max_frames` innermost frames, in the order the
    interpreter lists them; None where the process could not be made to say within `wait` seconds
    (blocking). A thread is `blocked` where the kernel says so, not from its line of code."""
    said = inject.ask(pid, REPORT.replace("{limit}", str(int(max_frames))), wait)
    if not isinstance(said, list):
        return None
    threads = [t for t in said if isinstance(t, dict) and isinstance(t.get("frames"), list)]
    natives = [int(t["native"]) for t in threads if isinstance(t.get("native"), int) and not t.get("stopped")]
    blocked = blocked_threads(pid, natives)
    return [_report(t, blocked) for t in threads]


def _report(thread: dict[str, Any], blocked: dict[int, Wait]) -> ThreadReport:
    native = thread.get("native")
    state: ThreadState = "stopped" if thread.get("stopped") else "blocked" if native in blocked else "running"
    wait = blocked.get(native) if isinstance(native, int) else None
    frames = tuple(StackLine(function=str(f[0]), file=str(f[1]), line=int(f[2]), code=str(f[3]) or None)
                   for f in thread["frames"] if isinstance(f, list) and len(f) == 4)
    dap_id = thread.get("id")
    return ThreadReport(name=str(thread.get("name")), ident=int(thread.get("ident") or 0),
                        dap_id=dap_id if isinstance(dap_id, int) else None, state=state, frames=frames,
                        total_frames=int(thread.get("depth") or len(frames)),
                        waiting_in=wait.words if wait else None, timed=wait.timed if wait else False)
