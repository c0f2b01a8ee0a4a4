#!/usr/bin/env bash
# Builds the conformance driver (cmd/nen-conformance) into clients/go/.bin for the conformance
# runner (conformance/drivers.json "build"); finds Go in /usr/local/go/bin when it is not on PATH.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
command -v go >/dev/null 2>&1 || export PATH="/usr/local/go/bin:$PATH"
go build -o .bin/nen-conformance ./cmd/nen-conformance
