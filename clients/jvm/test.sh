#!/usr/bin/env bash
# The JVM client's stage: the Kotlin compiler with -Werror (the lint: allWarningsAsErrors), then
# JUnit 5 under Surefire: the conformance vectors, unit tests, and the integration tests against
# a real @nen/server (NEN_REQUIRE_SERVER=1: a missing server fails), including the Java API test;
# then the jar, and a tiny run of the benchmark program. Offline (-o): setup.sh resolved everything.
# Pitfall: a plugin or dependency that only this stage's goals need (not setup.sh's package run)
# is missing offline: add it to what setup.sh resolves, or the stage fails on a fresh machine.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
bash setup.sh
NEN_REQUIRE_SERVER=1 mvn -q -o -B package dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory=target/lib \
  -Dsurefire.printSummary=true
ls target/nen-client-0.1.0.jar >/dev/null
# The benchmark program still runs (a tiny run; the figures come from a full run, see README).
NEN_REQUIRE_SERVER=1 bash bench.sh --n 50 --handshakes 5 >/dev/null
