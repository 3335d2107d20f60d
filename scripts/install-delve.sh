#!/usr/bin/env bash
# Delve for the machine's Go, built with `go install` through the Go module proxy into dap2mcp's tool directory
# ($XDG_DATA_HOME/dap2mcp/bin, else ~/.local/share/dap2mcp/bin), which dap2mcp searches before PATH.
# Which Delve, and the Go it needs to build, are said once, in src/dap2mcp/adapters/go.py (DELVE_RELEASE).
#   --check   exit 0 if this machine's Go can build it (else scripts/install.sh takes Debian's Go and Delve)
# Running it again changes nothing once that Delve is there.
set -euo pipefail
cd "$(dirname "$0")/.."
pinned() { sed -nE "s/^$1 = \"?([0-9.]+)\"?.*/\1/p" src/dap2mcp/adapters/go.py; }
DELVE_VERSION=$(pinned DELVE_RELEASE)
DELVE_MIN_GO_MINOR=$(pinned DELVE_BUILT_BY_GO | cut -d. -f2)
: "${DELVE_VERSION:?not found in src/dap2mcp/adapters/go.py}" "${DELVE_MIN_GO_MINOR:?not found in src/dap2mcp/adapters/go.py}"
TOOL_BIN="${XDG_DATA_HOME:-$HOME/.local/share}/dap2mcp/bin"
export GOTOOLCHAIN=local   # the machine's own Go, never one fetched to satisfy Delve's go.mod

go_minor=$( (go env GOVERSION 2>/dev/null || true) | sed -nE 's/^go1\.([0-9]+).*/\1/p')
if [ "${go_minor:-0}" -lt "$DELVE_MIN_GO_MINOR" ]; then
    [ "${1:-}" = --check ] && exit 1
    echo "install-delve: Delve $DELVE_VERSION needs Go 1.$DELVE_MIN_GO_MINOR or later to build; go here: $(go env GOVERSION 2>/dev/null || echo none)" >&2
    exit 1
fi
[ "${1:-}" = --check ] && exit 0

if [ "$("$TOOL_BIN/dlv" version 2>/dev/null | sed -n 's/^Version: //p')" = "$DELVE_VERSION" ]; then
    exit 0
fi
if ! fetched=$(timeout 300 go mod download "github.com/go-delve/delve@v$DELVE_VERSION" 2>&1); then
    echo "install: cannot fetch Delve $DELVE_VERSION from the Go module proxy ($(go env GOPROXY)): $(printf '%s' "$fetched" | tail -n 1)" >&2
    exit 1
fi
echo "install: Delve $DELVE_VERSION (go install, through the Go module proxy) into $TOOL_BIN" >&2
mkdir -p "$TOOL_BIN"
GOBIN="$TOOL_BIN" go install "github.com/go-delve/delve/cmd/dlv@v$DELVE_VERSION"
