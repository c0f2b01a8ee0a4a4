#!/usr/bin/env bash
# Builds the conformance driver (cmd/nen-conformance) into clients/go/.bin for the conformance
# runner (conformance/drivers.json "build"); finds Go in /usr/local/go/bin when it is not on PATH.
# Pitfall: no module download here: it relies on clients/go/setup.sh having filled the module
# cache (scripts/setup.sh runs it), so the conformance stage needs no registry.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
command -v go >/dev/null 2>&1 || export PATH="/usr/local/go/bin:$PATH"
go build -o .bin/nen-conformance ./cmd/nen-conformance
