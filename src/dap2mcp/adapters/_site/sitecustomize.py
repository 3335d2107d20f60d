# Put on the debuggee's PYTHONPATH by dap2mcp, which turns each part on by environment:
#
# DAP2MCP_TCP_NODELAY=1: pydevd's socket to the debug adapter lacks TCP_NODELAY, so Nagle's
#   algorithm meets delayed ACKs and every DAP request waits ~40 ms (microsoft/debugpy#2054).
#   Set the option on that one socket.
# DAP2MCP_MERGE_STDERR=1: debugpy reads stdout and stderr through two pipes and forwards them
#   from two threads, so their lines arrive out of order. Send stderr into the stdout pipe,
#   which keeps the order in which the program wrote them; note which pipe that is, the only one
#   dap2mcp's output marks may be written to (session/output/marks.py). Taken out of the environment: a
#   child process shares its parent's pipe already, or has pipes of its own the program reads apart.
# DAP2MCP_REPR_TIMEOUT=<seconds>: a value's repr that runs longer while pydevd reads a stop is
#   interrupted (pydevd's own thread interrupter: SIGINT for the main thread, an asynchronous
#   KeyboardInterrupt for others) and shown as too slow, so a slow __repr__ cannot hold a stop.
# DAP2MCP_STOP_ON_OVERFLOW=1: at Python's recursion limit, pydevd's own trace function (or the call of it,
#   or what it calls: a stop's JSON) is what overflows, inside the program's deepest frame; Python then
#   turns tracing off for the thread, so the RecursionError goes up uncaught with no stop, with or without
#   an `exception: raised` filter, its traceback ending in pydevd's frames. Before the program ends with
#   it, stop there as pydevd stops at any uncaught exception (its traceback keeps the program's frames),
#   and print the traceback without pydevd's frames.
#
# Then run any sitecustomize this one shadows.
import contextlib
import os
import sys


def _when_imported(name, patch):
    """Run `patch(module)` once module `name` has loaded: pydevd's modules load after this file runs.
    Nothing of the program's own calls passes through dap2mcp's code this way (a patched `socket.connect`
    put a frame of dap2mcp's in the program's tracebacks)."""
    import importlib.abc
    import importlib.machinery

    class _Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            if fullname != name:
                return None
            sys.meta_path.remove(self)
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
            if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
                return spec
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                with contextlib.suppress(Exception):
                    patch(module)

            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, _Finder())


if os.environ.get("DAP2MCP_TCP_NODELAY") == "1":

    def _nodelay(comm):
        import socket

        connect = comm.start_client

        def start_client(host, port):
            sock = connect(host, port)
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return sock

        comm.start_client = start_client

    _when_imported("_pydevd_bundle.pydevd_comm", _nodelay)

if os.environ.pop("DAP2MCP_MERGE_STDERR", None) == "1":
    with contextlib.suppress(OSError):
        os.dup2(1, 2)
        _pipe = os.fstat(1)
        DAP2MCP_OUTPUT_PIPE = (_pipe.st_dev, _pipe.st_ino)

if (_limit := os.environ.get("DAP2MCP_REPR_TIMEOUT")):

    def _bound_reprs(module):
        safe_repr, limit = module.SafeRepr, float(_limit)
        whole = safe_repr.__call__
        too_slow = f"<repr interrupted: it ran over {limit:g}s (dap2mcp); evaluate repr(...) to wait for it>"

        def bounded(self, obj):
            try:
                import pydevd
                from _pydevd_bundle.pydevd_timeout import create_interrupt_this_thread_callback

                tracker = pydevd.get_global_debugger().timeout_tracker
            except Exception:
                return whole(self, obj)
            try:
                with tracker.call_on_timeout(limit, create_interrupt_this_thread_callback()):
                    return whole(self, obj)
            except KeyboardInterrupt:
                return too_slow

        safe_repr.__call__ = bounded

    _when_imported("_pydevd_bundle.pydevd_safe_repr", _bound_reprs)

if os.environ.get("DAP2MCP_STOP_ON_OVERFLOW") == "1":
    _excepthook = sys.excepthook

    def _stop_on_overflow(kind, value, tb):
        pydevd = sys.modules.get("pydevd")
        debugger = pydevd.get_global_debugger() if pydevd is not None else None
        # pydevd's tracing off: the overflow came in its trace function (or in calling it), so it never saw it
        if debugger is not None and isinstance(value, RecursionError) and sys.gettrace() is None:
            entries, step = [], tb
            while step is not None:
                entries.append(step)
                step = step.tb_next
            # the program's frames end where pydevd's trace function begins, whatever that called on into
            # (json, contextlib); the launcher's frames above the program's are pydevd's too, but no tracing
            tracing = ("pydevd_cython", "pydevd_frame.py", "pydevd_trace_dispatch")
            first = next((i for i, e in enumerate(entries)
                          if any(name in e.tb_frame.f_code.co_filename for name in tracing)), len(entries))
            if first > 0:
                entries[first - 1].tb_next = None
                with contextlib.suppress(Exception):
                    debugger.trigger_exception_handler((kind, value, tb), as_uncaught=True)
        _excepthook(kind, value, tb)

    sys.excepthook = _stop_on_overflow


def _chain():
    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    rest = [p for p in sys.path if os.path.abspath(p or ".") != here]
    try:
        spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
        if spec is not None and spec.loader is not None:
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
    except Exception:
        pass


_chain()
del _chain
