#!/usr/bin/env bash
# Idempotent setup of the JVM client's toolchain: Java 17 and Maven (the machine's), and the
# Maven dependencies and plugins (Kotlin, BouncyCastle, OkHttp, JUnit, Surefire's JUnit Platform
# provider) from Maven Central into ~/.m2, so the stage and the conformance build run offline
# (-o). Quiet; a no-op when target/.deps-<pom hash> says this pom was resolved already.
# Pitfall: the stamp is keyed on pom.xml only: deleting ~/.m2 (not target/) leaves a stamp that
# lies; remove target/.deps-* too.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
for tool in java mvn; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "[setup] JVM client: no $tool command (Java 17 and Maven are needed)" >&2
    exit 1
  fi
done
stamp="target/.deps-$(sha256sum pom.xml | cut -c1-16)"
[ -f "$stamp" ] && exit 0
# Compiles, packages and resolves the runtime classpath; running the server-less UnitTest makes
# Surefire resolve its JUnit Platform provider and launcher (it does so only when a test runs).
mvn -q -B package dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory=target/lib \
  -Dtest=UnitTest >&2
touch "$stamp"
