#!/usr/bin/env bash
# Builds the command-line ProVerif 2.05 from the vendored release source
# (formal/vendor/proverif2.05-src.tar.gz, see formal/vendor/PROVENANCE.md) into
# .tools/proverif/proverif. Needs OCaml's native compiler (Debian ocaml-nox, installed from apt when
# missing). Idempotent: skipped when the binary exists and reports 2.05; the tarball's sha256 is
# checked before building. Pitfall: only `proverif` is built (`./build -nointeract`): the
# interactive simulator needs lablgtk2, which the suite never uses.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
TARBALL="$root/formal/vendor/proverif2.05-src.tar.gz"
SHA256=bca8eea1fd8b3cbcc118bf4f9fbb604966b458e6777af77afa135537d0d9a6aa
DEST="$root/.tools/proverif"
if [ -x "$DEST/proverif" ] && "$DEST/proverif" -help 2>&1 | grep -q 'Proverif 2.05'; then
  exit 0
fi
if ! command -v ocamlopt >/dev/null 2>&1 || ! command -v ocamlyacc >/dev/null 2>&1; then
  log "apt-get install ocaml-nox (to build ProVerif)"
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq ocaml-nox >/dev/null
fi
echo "$SHA256  $TARBALL" | sha256sum -c --quiet -
log "building ProVerif 2.05 into .tools/proverif"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$TARBALL" -C "$tmp"
(cd "$tmp/proverif2.05" && ./build -nointeract >"$tmp/build.log" 2>&1) || {
  cat "$tmp/build.log" >&2
  exit 1
}
mkdir -p "$DEST"
cp "$tmp/proverif2.05/proverif" "$DEST/proverif.tmp"
mv "$DEST/proverif.tmp" "$DEST/proverif"
