#!/usr/bin/env bash
# The Rust client's stage: rustfmt and clippy -D warnings clean, cargo test in the `suite` profile
# (release code without LTO, Cargo.toml: unit tests, the conformance vectors, and the integration
# tests against a real @nen/server the tests start: NEN_REQUIRE_SERVER=1 makes a missing server a
# failure), and a short run of the benchmark program. The conformance scenarios run in the suite's
# conformance stage through src/bin/nen-conformance.rs (conformance/drivers.json), which shares
# this build.
# Pitfall: every cargo command that compiles uses --profile suite, like the driver's build: another
# profile would compile the dependency tree a second time on the 2-core machine.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
cd "$here"
bash setup.sh
cargo fmt --check
cargo clippy --profile suite --locked --all-targets --quiet -- -D warnings
NEN_REQUIRE_SERVER=1 cargo test --profile suite --locked --quiet
cargo run --profile suite --locked --quiet --example bench -- --rounds 1 --n 100 >/dev/null
