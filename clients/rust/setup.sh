#!/usr/bin/env bash
# Setup for the Rust client (called from scripts/setup.sh): the Rust toolchain itself comes from
# rustup (scripts/setup.sh); this fetches the crate's dependencies from crates.io into cargo's
# cache (idempotent: a no-op when Cargo.lock's crates are already there).
# Pitfall: --locked: a Cargo.toml change without the matching Cargo.lock fails here, rather than
# resolving new versions on a fresh machine.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
cargo fetch --locked --quiet --manifest-path "$here/Cargo.toml"
