#!/usr/bin/env bash
# Re-derives crates/vendor/libcrux-ml-kem and crates/vendor/libcrux-sha3 from the pristine
# crates.io packages: an attribute-only patch, nothing else (see crates/vendor/README.md).
#   bash crates/vendor/derive.sh          rewrite the vendored copies
#   bash crates/vendor/derive.sh --check  re-derive into a temp dir and diff (exit 1 on a difference)
# Steps per crate: take NAME-VERSION.crate from cargo's download cache (or `cargo fetch` it, the
# ordinary client, into a throw-away project), verify its sha256 against the checksum crates.io
# published (recorded below; it is what Cargo.lock held before the [patch]), unpack it, drop
# .cargo-ok and Cargo.lock (not source), then in src/**/*.rs, for wasm32 only (cfg_attr):
#   1. every `#[inline(always)]` becomes `#[cfg_attr(target_arch = "wasm32", inline)]
#      #[cfg_attr(not(target_arch = "wasm32"), inline(always))]` (in place, same line): on wasm32
#      LLVM decides and code can be shared; elsewhere the attribute is upstream's;
#   2. libcrux-ml-kem only: on `fn ntt_multiply` in src/polynomial.rs the wasm32 arm is
#      `inline(never)` (one shared body for the 4 matrix products instead of 4 inlined copies).
# Pitfalls: native x86_64 libcrux reaches its runtime-selected AVX2 code only through
# `#[inline(always)]` into `#[target_feature(enable = "avx2")]` entry points; a plain `#[inline]`
# there leaves the generic bodies compiled without AVX2 (ML-KEM encaps ~20x slower), hence the
# target condition. LICENSE in each vendored dir is ours to keep (the .crate ships none); the
# diff skips it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
crates=(
  "libcrux-ml-kem 0.0.11 4ceed00367748ec0b545bc4a7b0521f8c9fd476d02484340f0a95b0f45f828cd"
  "libcrux-sha3 0.0.11 2c8117e86e1f03417d8ebe50ed298c6ee0b05557783a75697d0c59a2ef2dcfc6"
)
check=0
[ "${1:-}" = "--check" ] && check=1
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The pristine .crate file of NAME VERSION (from cargo's cache, fetched if absent).
pristine() {
  local name="$1" version="$2" f
  f="$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"$name-$version.crate" 2>/dev/null | head -1 || true)"
  if [ -z "$f" ]; then
    mkdir -p "$tmp/fetch/src" && touch "$tmp/fetch/src/lib.rs"
    printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n%s = "=%s"\n' \
      "$name" "$version" >"$tmp/fetch/Cargo.toml"
    (cd "$tmp/fetch" && cargo fetch -q)
    f="$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"$name-$version.crate" | head -1)"
  fi
  printf '%s' "$f"
}

status=0
for entry in "${crates[@]}"; do
  read -r name version sum <<<"$entry"
  file="$(pristine "$name" "$version")"
  got="$(sha256sum "$file" | cut -d' ' -f1)"
  if [ "$got" != "$sum" ]; then
    echo "[vendor] $name-$version.crate: sha256 $got, expected $sum" >&2
    exit 1
  fi
  mkdir -p "$tmp/out"
  tar -xzf "$file" -C "$tmp/out"
  dir="$tmp/out/$name-$version"
  rm -f "$dir/.cargo-ok" "$dir/Cargo.lock"
  # In place, on the same line: no line moves, so panic locations (file:line in the binary) stay
  # upstream's and the wasm32 build is byte-identical to the unconditional `#[inline]` patch.
  find "$dir/src" -name '*.rs' -exec perl -pi -e \
    's/#\[inline\(always\)\]/#[cfg_attr(target_arch = "wasm32", inline)] #[cfg_attr(not(target_arch = "wasm32"), inline(always))]/g' {} +
  if [ "$name" = libcrux-ml-kem ]; then
    # The wasm32 `inline` nearest above `fn ntt_multiply<` (the free function; its attribute lines between).
    perl -0pi -e 's/(#\[cfg_attr\(target_arch = "wasm32", )inline(\)\][^\n]*(?:\n(?!#\[cfg_attr\(target_arch = "wasm32")[^\n]*)*?\nfn ntt_multiply<)/$1inline(never)$2/ or die "ntt_multiply not found\n"' \
      "$dir/src/polynomial.rs"
  fi
  dest="$here/$name"
  if [ "$check" = 1 ]; then
    if ! diff -r -x LICENSE "$dir" "$dest" >/dev/null; then
      echo "[vendor] $dest differs from the derived copy:" >&2
      diff -r -x LICENSE "$dir" "$dest" | head -20 >&2 || true
      status=1
    else
      echo "[vendor] $name-$version: vendored copy = pristine (sha256 $sum) + the attribute patch"
    fi
  else
    [ -f "$dest/LICENSE" ] && cp "$dest/LICENSE" "$dir/LICENSE"
    rm -rf "$dest" && cp -r "$dir" "$dest"
    echo "[vendor] $name-$version -> $dest"
  fi
done
exit "$status"
