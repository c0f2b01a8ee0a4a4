#!/usr/bin/env bash
# Runs the JVM client's benchmark (src/test/kotlin/dev/nen/Bench.kt) against a real @nen/server it
# starts itself; arguments pass through (--n requests per round, --rounds, --handshakes).
# Pitfall: Maven runs offline (-o): run clients/jvm/setup.sh first on a fresh machine; a stale
# target/test-classes is reused as is (delete it after changing the tests).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
[ -d target/test-classes ] || mvn -q -o -B test-compile
mvn -q -o -B dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test.cp >/dev/null
exec java -cp "target/classes:target/test-classes:$(cat target/test.cp)" dev.nen.Bench "$@"
