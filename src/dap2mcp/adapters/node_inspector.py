"""A running Node program's inspector, for mode `attach`: where it listens, and opening it as VS Code does.

Node opens its inspector when it gets SIGUSR1 (what `process._debugProcess(pid)` sends on Linux), on the port
its options name (`--inspect-port`, or the port of `--inspect`, from the command line or NODE_OPTIONS), else
on 9229. js-debug's attach takes only an address, so dap2mcp reads the port, signals the process, and waits
until the process itself listens there. Where another process holds the port, Node's inspector cannot open
(Node prints that to the program's stderr and runs on): that is refused before the signal, naming the holder.
"""

from __future__ import annotations

import os
import signal
import time

import psutil

from ..errors import DebugError, ErrorCode

DEFAULT_PORT = 9229
DEFAULT_HOST = "127.0.0.1"
OPEN_WAIT = 5.0
"""How long Node may take to open its inspector after SIGUSR1 (it does within milliseconds, on a thread of its own)."""
PORT_FLAGS = ("--inspect-port", "--debug-port")
"""Node's options that set the inspector's `[host:]port` without opening it; they also take the value as the next argument."""
OPENING_FLAGS = ("--inspect", "--inspect-brk", "--inspect-wait")
"""Node's options that open the inspector at start, with an optional `=[host:]port`."""
VALUE_FLAGS = frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader", "-e", "--eval", "-p",
                         "--print", "--title", "--env-file", "-C", "--conditions", *PORT_FLAGS})
"""Node's options whose value may be the next argument: that argument is not yet the script."""


def inspector_address(argv: list[str], node_options: str = "") -> tuple[str, int]:
    """Where Node opens the inspector of a process with this command line and NODE_OPTIONS: the last option
    that names it wins, the command line's after NODE_OPTIONS' (Node reads them in that order)."""
    host, port = DEFAULT_HOST, DEFAULT_PORT
    for value in _inspector_values([*node_options.split(), *_node_options(argv[1:])]):
        host, port = _host_port(value, host, port)
    return ("127.0.0.1" if host in ("0.0.0.0", "::", "") else host), port


def _node_options(args: list[str]) -> list[str]:
    """The arguments before the script: Node's own options (what follows the script is the program's)."""
    options: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--" or (not arg.startswith("-") and (index == 0 or args[index - 1] not in VALUE_FLAGS)):
            break
        options.append(arg)
    return options


def _inspector_values(options: list[str]) -> list[str]:
    """The `[host:]port` values the inspector's options give, in order (an opening option without one: none)."""
    values = []
    for index, option in enumerate(options):
        name, equals, value = option.partition("=")
        if name in PORT_FLAGS and not equals and index + 1 < len(options):
            value, equals = options[index + 1], "="
        if equals and name in (*PORT_FLAGS, *OPENING_FLAGS):
            values.append(value)
    return values


def _host_port(value: str, host: str, port: int) -> tuple[str, int]:
    """`value` as Node reads `[host:]port` (a host alone keeps the port; `[::1]:9230` is IPv6)."""
    if value.isdigit():
        return host, int(value)
    named, _, number = value.rpartition(":")
    if number.isdigit() and named:
        return named.strip("[]"), int(number)
    return value.strip("[]"), port


def listening_ports(pid: int) -> set[int]:
    """The TCP ports process `pid` listens on."""
    try:
        return {c.laddr.port for c in psutil.Process(pid).net_connections("tcp") if c.status == psutil.CONN_LISTEN}
    except psutil.Error:
        return set()


def port_holder(port: int) -> str | None:
    """What listens on `port` on this machine, in words (`process 412 (node)`), where anything does."""
    try:
        found = [c for c in psutil.net_connections("tcp") if c.status == psutil.CONN_LISTEN and c.laddr.port == port]
    except psutil.Error:
        return None
    if not found:
        return None
    pid = found[0].pid
    if pid is None:
        return "a process of another user"
    try:
        return f"process {pid} ({psutil.Process(pid).name()})"
    except psutil.Error:
        return f"process {pid}"


def open_inspector(pid: int, wait: float = OPEN_WAIT) -> tuple[str, int]:
    """The address of Node process `pid`'s inspector, opened with SIGUSR1 unless it is open already (blocking).
    INVALID_ARGUMENT where `pid` is not Node (SIGUSR1 would end most other programs), or its port is another's;
    ADAPTER_FAILED where it did not open within `wait` seconds."""
    try:
        process = psutil.Process(pid)
        exe, argv, environ = process.exe(), process.cmdline(), process.environ()
    except psutil.Error as exc:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"cannot read process {pid}: {exc}") from None
    if not os.path.basename(exe).startswith("node"):
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"process {pid} runs {exe}, not node: the node adapter opens a "
                         "process's inspector with SIGUSR1, which ends most other programs")
    host, port = inspector_address(argv, environ.get("NODE_OPTIONS", ""))
    if port in listening_ports(pid):
        return host, port
    if (holder := port_holder(port)) is not None:
        raise DebugError(ErrorCode.INVALID_ARGUMENT, f"process {pid} would open its inspector on port {port}, which "
                         f"{holder} listens on: start the program with --inspect-port=PORT (a free port; 9229 is "
                         f"Node's default), or --inspect=PORT and use mode connect with address {host}:PORT")
    os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if port in listening_ports(pid):
            return host, port
        if not psutil.pid_exists(pid):
            raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} ended when signalled to open its inspector")
        time.sleep(0.05)
    raise DebugError(ErrorCode.ADAPTER_FAILED, f"process {pid} did not open its inspector on port {port} within "
                     f"{wait:g} s of SIGUSR1 (a Node started with --disable-sigusr1 ignores it; one stopped by a "
                     "signal cannot): start it with --inspect=PORT and use mode connect")
