#!/usr/bin/env bash
# Idempotent setup of the Python client's toolchain: a venv in clients/python/.venv with the
# pinned packages of requirements-dev.txt from PyPI (skipped when the stamp matches the file).
# Pitfall: the venv follows requirements-dev.txt only: a dependency added to pyproject.toml must be
# pinned there too, or the tests import what the venv lacks.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
stamp="$venv/.requirements-dev.sha256"
want="$(sha256sum "$here/requirements-dev.txt" | cut -d' ' -f1)"
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exit 0
fi
echo "[setup] Python client: venv + $(grep -vc '^#' "$here/requirements-dev.txt") packages from PyPI"
if ! python3 -m venv --clear "$venv" >/dev/null 2>&1; then  # Debian without python3-venv
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv >/dev/null
  python3 -m venv --clear "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements-dev.txt"
echo "$want" > "$stamp"
