#!/usr/bin/env bash
# The Python client's stage: ruff (lint + format check), pytest (vectors, unit, and the real
# @nen/server integration tests: NEN_REQUIRE_SERVER=1 makes a missing server a failure), the
# wheel build (hatchling, no network) with an import check of the built wheel, the conformance
# kit (when the runner is present) and a short benchmark smoke run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$here"
[ -x .venv/bin/python ] || bash setup.sh
py="$here/.venv/bin/python"
"$py" -m ruff check src tests bench.py conformance_driver.py
"$py" -m ruff format --check src tests bench.py conformance_driver.py
NEN_REQUIRE_SERVER=1 "$py" -m pytest -p no:cacheprovider tests
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$py" -m build --wheel --no-isolation --outdir "$tmp/dist" . >/dev/null
wheel="$(ls "$tmp"/dist/nen_client-*.whl)"
"$py" -m zipfile -l "$wheel" > "$tmp/contents.txt"
grep -q "nen/py.typed" "$tmp/contents.txt"
"$py" -m pip install -q --no-deps --disable-pip-version-check --target "$tmp/site" "$wheel"
(cd "$tmp" && PYTHONPATH="$tmp/site" "$py" -c 'import nen, sys; assert nen.Transport and nen.AsyncTransport; print("wheel ok:", sys.argv[1].rsplit("/",1)[1], nen.__version__)' "$wheel")
if [ -f "$root/conformance/runner/run.mjs" ] && grep -q '"python"' "$root/conformance/drivers.json" 2>/dev/null; then
  (cd "$root" && node conformance/runner/run.mjs --client python)
fi
