#!/usr/bin/env bash
# Checks a copy of js-debug (the folder holding vsDebugServer.js) before dap2mcp runs it: against the
# checksums the package carries (manifest.json's sha256 and vsDebugServer.js.sha256, both of the entry
# script) and against scripts/js-debug.sha256, ours, which covers every file (the package's cover only the
# entry script, and bootloader.js is loaded into every debugged program). Exit 0 when it all matches; else
# exit 1 naming the file that does not. Used by install.sh; run it alone on any copy: verify-js-debug.sh DIR
set -euo pipefail
dir=${1:?usage: verify-js-debug.sh DIR}
ours="$(cd "$(dirname "$0")" && pwd)/js-debug.sha256"
version=v1.112.0

fail() {
    echo "js-debug: $*" >&2
    exit 1
}

entry="$dir/vsDebugServer.js"
for file in "$entry" "$entry.sha256" "$dir/manifest.json"; do
    [ -f "$file" ] || fail "$file is missing"
done
actual=$(sha256sum "$entry" | cut -d' ' -f1)
carried=$(tr -d ' \n' <"$entry.sha256")
[ "$actual" = "$carried" ] ||
    fail "CHECKSUM MISMATCH: $entry has sha256 $actual, but vsDebugServer.js.sha256 says $carried"
manifest=$(sed -n 's/.*"sha256": *"\([0-9a-f]*\)".*/\1/p' "$dir/manifest.json")
[ "$actual" = "$manifest" ] ||
    fail "CHECKSUM MISMATCH: $entry has sha256 $actual, but manifest.json says ${manifest:-nothing}"
grep -q "\"version\": *\"$version\"" "$dir/manifest.json" ||
    fail "$dir/manifest.json does not name version $version"
if ! mismatched=$(cd "$dir" && sha256sum --check --quiet "$ours" 2>&1); then
    fail "CHECKSUM MISMATCH in $dir against $ours:"$'\n'"$mismatched"
fi
