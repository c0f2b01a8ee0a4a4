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
# Targets run side by side, as many at a time as there are cores (each libFuzzer process is
# single-threaded), every one for its full budget; a crash in any fails the run.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
run_target() {
  mkdir -p "corpus/$1" "seeds/$1"
  cargo +nightly fuzz run -O "$1" "corpus/$1" "seeds/$1" -- -max_total_time="$secs" -rss_limit_mb=2048 >"$logs/$1" 2>&1
}
width=$(nproc 2>/dev/null || echo 1)
status=0
batch=()
flush() {
  for i in "${!batch[@]}"; do
    if ! wait "${pids[$i]}"; then status=1; echo "fuzz ${batch[$i]}: FAILED"; tail -40 "$logs/${batch[$i]}"; else
      echo "fuzz ${batch[$i]}: ${secs}s"; tail -2 "$logs/${batch[$i]}"; fi
  done
  batch=(); pids=()
}
pids=()
for t in $targets; do
  run_target "$t" &
  pids+=($!); batch+=("$t")
  if [ "${#batch[@]}" -ge "$width" ]; then flush; fi
done
flush
if [ "$status" -ne 0 ]; then exit 1; fi
echo "fuzz: all targets ran ${secs}s each without a crash"
