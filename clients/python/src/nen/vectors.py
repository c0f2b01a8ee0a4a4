"""The conformance kit's vector files (``conformance/vectors/``), checked with this package's own
code for the driver's ``vectors`` command. A vector kind this module does not know is reported as
``ok: false, detail: "unsupported"``, never skipped silently.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def check_dir(d: Path) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for f in sorted(d.glob("*.json")):
        try:
            data = json.loads(f.read_text())
        except ValueError as e:
            results.append({"file": f.name, "name": "*", "ok": False, "detail": f"unreadable: {e}"})
            continue
        results.append({"file": f.name, "name": str(data.get("name", "*")) if isinstance(data, dict) else "*", "ok": False, "detail": "unsupported"})
    return results
