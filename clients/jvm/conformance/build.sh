#!/usr/bin/env bash
# Builds the JVM client and its conformance driver for conformance/runner (offline: the
# dependencies were resolved by clients/jvm/setup.sh). Output: clients/jvm/target/classes and
# target/lib/*.jar (the runtime classpath), started as dev.nen.conformance.Driver.
# Pitfall: the runner (conformance/runner/run.mjs) gives a build 5 minutes and, on failure, shows
# the last 600 characters of stderr first: Maven's output goes there (>&2) so its error is seen.
# Up to date (the suite's JVM stage packaged it just before): no source, resource or pom.xml newer
# than the jar and the runtime classpath present, so Maven's 15 s re-package is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
jar=target/nen-client-0.1.0.jar
if [ -f "$jar" ] && [ -d target/lib ] && [ -d target/classes ] && [ -z "$(find src/main pom.xml -newer "$jar" -print -quit)" ]; then
  exit 0
fi
mvn -q -o -B package -DskipTests dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory=target/lib >&2
