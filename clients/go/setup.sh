#!/usr/bin/env bash
# Idempotent setup of the Go client's toolchain: Go >= 1.26 (crypto/hpke with X-Wing and
# ML-KEM-768; the machine's Go, or GOTOOLCHAIN fetching that toolchain module from the Go module
# proxy) and the module's dependencies (golang.org/x/crypto, x/sys) from the Go module proxy into
# Go's default module cache. Quiet when everything is there.
# Pitfall: an older machine Go downloads the go1.26 toolchain module itself (GOTOOLCHAIN=auto):
# that needs the module proxy once, and GOTOOLCHAIN=local would turn it into a version error.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v go >/dev/null 2>&1 || export PATH="/usr/local/go/bin:$PATH"
if ! command -v go >/dev/null 2>&1; then
  echo "[setup] Go client: no go command (Go >= 1.26 is needed)" >&2
  exit 1
fi
cd "$here"
# go.mod says go 1.26: an older go fetches the 1.26 toolchain module itself (GOTOOLCHAIN=auto).
# `go mod download` is quiet and quick when the module cache already has them.
go mod download
