#!/usr/bin/env bash
# Installs everything dap2mcp and its tests need on Debian bookworm with Python 3.11, into .venv.
# Safe to run again: it only adds what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v gdb >/dev/null || need_apt+=(gdb)          # debugpy attaches to a pid through gdb
python3 -c 'import venv, ensurepip' 2>/dev/null || need_apt+=(python3-venv)
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
