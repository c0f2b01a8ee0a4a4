#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time (default 20 s each), starting from the committed
# seed corpus in seeds/<target>/ (new inputs go to the gitignored corpus/<target>/). Exits non-zero
# on the first crash; libFuzzer leaves the crashing input in artifacts/<target>/, which then becomes
# a regression case. Needs the nightly toolchain and cargo-fuzz (scripts/setup.sh --fuzz installs them).
# Pitfalls: the budget is per target, so a new target adds its seconds to the suite; artifacts/ and
# corpus/ are gitignored: copy a crashing input into seeds/<target>/ or it is lost with the machine.
#
#   bash crates/nen-core/fuzz/run.sh [seconds-per-target]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$HOME/.cargo/bin:$PATH"
secs="${1:-20}"
targets=$(sed -n 's/^name = "\([a-z0-9_]*\)"$/\1/p' Cargo.toml | grep -v '^nen-core-fuzz$')
cargo +nightly fuzz build -O >/dev/null
for t in $targets; do
  mkdir -p "corpus/$t" "seeds/$t"
  echo "fuzz $t: ${secs}s"
  cargo +nightly fuzz run -O "$t" "corpus/$t" "seeds/$t" -- -max_total_time="$secs" -rss_limit_mb=2048 2>&1 | tail -2
done
echo "fuzz: all targets ran ${secs}s each without a crash"
