"""Command line: `dap2mcp [serve]` runs the MCP server on stdio; `dap2mcp demo` shows it working."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dap2mcp", description="A debugger for AI agents, over MCP.")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("serve", help="run the MCP server on stdio (the default)")
    demo = sub.add_parser("demo", help="debug the bundled example through a real MCP client session")
    demo.add_argument("--quiet", action="store_true", help="print only the summary")
    options = parser.parse_args(argv)

    if options.command in (None, "serve"):
        from .server import build_server

        build_server().run("stdio")
        return 0
    if options.command == "demo":
        from .demo import run_demo

        return run_demo(quiet=options.quiet)
    parser.error(f"unknown command {options.command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
