#!/bin/bash
# Fixes the job but never re-measures: the file still says 36 calls.
set -e

python3 - <<'PY'
from pathlib import Path
report = Path("restock/report.py")
report.write_text(report.read_text().replace(
    "    for line in orders:\n        sku = line[\"sku\"]\n        level = client.stock_level(sku)\n",
    "    for sku in sorted(demand):  # one live lookup per SKU, not per order line\n        level = client.stock_level(sku)\n",
))
PY
grep -q "for sku in sorted(demand)" restock/report.py

python3 -m unittest
