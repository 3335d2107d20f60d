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
# Two workers: most of a test's time is spent waiting on servers, adapters and programs, and on a
# slow VM the suite took 20 minutes in one process (12 in two), against CI's 20-minute budget.
.venv/bin/python -m pytest -p no:cacheprovider -n 2 "$@"
status=$?
if [ "$status" -eq 5 ]; then
    echo "test: pytest collected no tests; that is a failure here" >&2
    exit 1
fi
exit "$status"
