#!/usr/bin/env bash
# Installs what the tests need, then runs the lint and every test. Exit code 5 (no tests ran) fails.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh || exit 1
# The independent MCP clients the tests run (Inspector CLI, conformance suite) and Node 22 for them;
# install.sh has put npm on the machine.
if [ ! -x tests/npm/node_modules/.bin/node ] || [ tests/npm/package-lock.json -nt tests/npm/node_modules/.package-lock.json ]; then
    npm ci --prefix tests/npm --no-audit --no-fund --loglevel=error || exit 1
fi
.venv/bin/ruff check src tests bench || exit 1
.venv/bin/python -m pytest -p no:cacheprovider "$@"
status=$?
if [ "$status" -eq 5 ]; then
    echo "test: pytest collected no tests; that is a failure here" >&2
    exit 1
fi
exit "$status"
