"""Runs the conformance driver from a source checkout (``python conformance_driver.py``); an
installed package runs the same with ``python -m nen.conformance``.

Pitfall: it imports ``nen`` from ./src ahead of any installed copy, so it always runs this checkout.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "src"))

from nen.conformance import main

sys.exit(main())
