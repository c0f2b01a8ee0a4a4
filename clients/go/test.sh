#!/usr/bin/env bash
# The Go client's stage: gofmt and go vet clean, go test (conformance vectors, unit and fuzz
# seeds, and the integration tests against a real @nen/server the tests start:
# NEN_REQUIRE_SERVER=1 makes a missing server a failure). The conformance scenarios run in the
# suite's conformance stage through cmd/nen-conformance (conformance/drivers.json).
# Pitfall: without NEN_REQUIRE_SERVER=1 the integration tests skip when the server cannot start;
# the stage sets it so that a missing server fails instead of passing silently.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v go >/dev/null 2>&1 || export PATH="/usr/local/go/bin:$PATH"
cd "$here"
bash setup.sh
unformatted="$(gofmt -l .)"
if [ -n "$unformatted" ]; then echo "gofmt: not formatted: $unformatted"; exit 1; fi
go vet ./...
NEN_REQUIRE_SERVER=1 go test -count=1 ./...
# The concurrency paths again under the race detector (one session shared by 32 goroutines,
# flow control, the handshake shared by waiting callers, retries).
NEN_REQUIRE_SERVER=1 go test -count=1 -race -run 'Concurrent|Sequence|Faults|Expiry' .
# The benchmark program still runs (a short smoke run; the figures in README.md come from full runs).
go run ./cmd/nen-bench -rounds 1 -n 100 >/dev/null
