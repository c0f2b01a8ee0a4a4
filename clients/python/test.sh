#!/usr/bin/env bash
# The Python client's stage: ruff (lint + format check), mypy --strict, pytest (vectors, unit, and the real
# @nen/server integration tests: NEN_REQUIRE_SERVER=1 makes a missing server a failure), the
# wheel build (hatchling, no network) with an import check of the built wheel, and a tiny bench
# run. The conformance kit runs this client in its own stage (conformance/run.sh, drivers.json).
# Pitfall: the wheel is built with --no-isolation (no network in the stage): its build backend
# (hatchling) must be in the venv, i.e. in requirements-dev.txt.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
[ -x .venv/bin/python ] || bash setup.sh
py="$here/.venv/bin/python"
"$py" -m ruff check src tests bench.py conformance_driver.py
"$py" -m ruff format --check src tests bench.py conformance_driver.py
"$py" -m mypy --cache-dir "$here/.venv/.mypy_cache" src  # strict (pyproject.toml): the package ships py.typed
NEN_REQUIRE_SERVER=1 "$py" -m pytest -p no:cacheprovider tests
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$py" -m build --wheel --no-isolation --outdir "$tmp/dist" . >/dev/null
wheel="$(ls "$tmp"/dist/nen_client-*.whl)"
"$py" -m zipfile -l "$wheel" > "$tmp/contents.txt"
grep -q "nen/py.typed" "$tmp/contents.txt"
"$py" -m pip install -q --no-deps --disable-pip-version-check --target "$tmp/site" "$wheel"
(cd "$tmp" && PYTHONPATH="$tmp/site" "$py" -c 'import nen, sys; assert nen.Transport and nen.AsyncTransport; print("wheel ok:", sys.argv[1].rsplit("/",1)[1], nen.__version__)' "$wheel")
# The benchmark program still runs (a tiny run; the figures come from a full run, see README).
"$py" bench.py --n 50 --rounds 1 --handshakes 5 >/dev/null
