"""Command line: `dap2mcp [serve]` runs the MCP server on stdio; `dap2mcp doctor` checks the adapters;
`dap2mcp demo` shows it working."""

from __future__ import annotations

import argparse
import sys

import anyio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dap2mcp", description="A debugger for AI agents, over MCP.")
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
        from .adapters.doctor import run

        return run(list(PROFILES.values()), UNPROFILED)
    if options.command == "demo":
        from .demo import run_demo

        return run_demo(quiet=options.quiet)
    parser.error(f"unknown command {options.command}")
    return 2


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return int(text)


if __name__ == "__main__":
    sys.exit(main())
