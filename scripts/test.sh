#!/usr/bin/env bash
# Installs what the tests need, then runs the lint and every test. Exit code 5 (no tests ran) fails.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh || exit 1
.venv/bin/ruff check src tests bench || exit 1
.venv/bin/python -m pytest -p no:cacheprovider "$@"
status=$?
if [ "$status" -eq 5 ]; then
    echo "test: pytest collected no tests; that is a failure here" >&2
    exit 1
fi
exit "$status"
