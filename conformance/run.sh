#!/usr/bin/env bash
# The conformance suite stage (scripts/test.sh): the vectors checked against @nen/core, then the
# runner: fault server + every registered driver (conformance/drivers.json) + real traffic.
# Pitfall: the vectors are checked, never regenerated here: a protocol change must come with
# `node conformance/vectors/generate.mjs` run and its output committed, or this stage fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node conformance/vectors/generate.mjs --check
node conformance/runner/run.mjs --real "$@"
