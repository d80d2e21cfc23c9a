#!/bin/bash
# Looks each SKU up once per run and re-measures honestly, but lists a SKU whose open demand is exactly what is on hand (0 packs): the recorded night has no such SKU, so only another night shows the report changed.
set -e

python3 - <<'PY'
from pathlib import Path
report = Path("restock/report.py")
text = report.read_text().replace(
    "    for line in orders:\n        sku = line[\"sku\"]\n        level = client.stock_level(sku)\n",
    "    for sku in sorted(demand):  # one live lookup per SKU, not per order line\n        level = client.stock_level(sku)\n",
).replace("if shortfall > 0:", "if shortfall >= 0:")
report.write_text(text)
PY
grep -q "for sku in sorted(demand)" restock/report.py && grep -q "shortfall >= 0" restock/report.py

python3 -m unittest && python3 -m restock fixtures/open-orders.json

python3 scripts/measure_calls.py && cat metrics/nightly.json
