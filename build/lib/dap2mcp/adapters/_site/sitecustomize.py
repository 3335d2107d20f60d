# Put on the debuggee's PYTHONPATH by dap2mcp, which turns each part on by environment:
#
# DAP2MCP_TCP_NODELAY=1: pydevd's socket to the debug adapter lacks TCP_NODELAY, so Nagle's
#   algorithm meets delayed ACKs and every DAP request waits ~40 ms (microsoft/debugpy#2054).
#   Set the option on that one socket.
# DAP2MCP_MERGE_STDERR=1: debugpy reads stdout and stderr through two pipes and forwards them
#   from two threads, so their lines arrive out of order. Send stderr into the stdout pipe,
#   which keeps the order in which the program wrote them.
#
# Then run any sitecustomize this one shadows.
import contextlib
import os
import socket
import sys

if os.environ.get("DAP2MCP_TCP_NODELAY") == "1":
    _connect = socket.socket.connect

    def _connect_nodelay(self, address):
        result = _connect(self, address)
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if caller.endswith("pydevd_comm") and self.family in (socket.AF_INET, socket.AF_INET6):
            with contextlib.suppress(OSError):
                self.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return result

    socket.socket.connect = _connect_nodelay

if os.environ.get("DAP2MCP_MERGE_STDERR") == "1":
    with contextlib.suppress(OSError):
        os.dup2(1, 2)


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
