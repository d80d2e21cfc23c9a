#!/bin/bash
# Looks each SKU up once per run, re-measures, and records what the run really costs (14 calls, over quota).
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

python3 -m unittest && python3 -m restock fixtures/open-orders.json

python3 scripts/measure_calls.py && cat metrics/nightly.json
