#!/usr/bin/env bash
# Builds dap2mcp's Java debug host (src/dap2mcp/adapters/java_host: its Java sources, and the library it is built
# on, named in its pom.xml) with the machine's JDK (JAVA_HOME's, else the one on PATH; 17 or newer):
#   1. Maven fetches the library and what it needs from Maven Central into the local repository (~/.m2) and copies
#      the jars out, failing on a checksum that does not match (-C); the jars are then checked once more against
#      scripts/java-host.sha256, so a changed jar stops the install, naming it;
#   2. javac compiles the host's sources against them.
# The build goes to $DAP2MCP_JAVA_HOST/<key>, else vendor/java-host/<key> in the checkout (beside js-debug), <key>
# being a hash of the pom.xml and the sources, which dap2mcp computes the same way: a build of other sources is
# never run. Quick when that build is there already; --force builds again. --check says whether it is there.
set -euo pipefail
cd "$(dirname "$0")/.."
src=src/dap2mcp/adapters/java_host
key=$( { cat "$src/pom.xml"; find "$src/src" -name '*.java' -print0 | LC_ALL=C sort -z | xargs -0 cat; } | sha256sum | cut -c1-12)
root=${DAP2MCP_JAVA_HOST:-$PWD/vendor/java-host}
dest=$root/$key
if [ "${1:-}" = --check ]; then
    [ -f "$dest/classpath" ]
    exit
fi
if [ -f "$dest/classpath" ] && [ "${1:-}" != --force ]; then
    exit 0
fi
bin=${JAVA_HOME:+$JAVA_HOME/bin/}
release=$("${bin}javac" -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')
if [ -z "$release" ] || [ "$release" -lt 17 ]; then
    echo "install-java-host: needs a JDK 17 or newer (javac); found: $("${bin}javac" -version 2>&1 || true)" >&2
    exit 1
fi
echo "install: the Java debug host into $dest" >&2
mkdir -p "$root"
work=$(mktemp -d "$root/.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
mvn -q -B -C -Dstyle.color=never -f "$src/pom.xml" org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
    -DoutputDirectory="$work/lib"
sums=$PWD/scripts/java-host.sha256
( cd "$work/lib"
  listed=$(awk '{print $2}' "$sums" | LC_ALL=C sort)
  copied=$(ls | LC_ALL=C sort)
  if [ "$listed" != "$copied" ]; then
      echo "install-java-host: Maven fetched other jars than scripts/java-host.sha256 lists:" >&2
      diff <(echo "$listed") <(echo "$copied") >&2 || true
      exit 1
  fi
  sha256sum --quiet -c "$sums" )
"${bin}javac" --release 17 -encoding UTF-8 -nowarn -d "$work/classes" -cp "$work/lib/*" $(find "$src/src" -name '*.java')
printf '%s\n' "$dest/classes:$dest/lib/*" > "$work/classpath"
rm -rf "$dest"
mv "$work" "$dest"
trap - EXIT
