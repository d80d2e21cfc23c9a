#!/bin/bash
# Another correct fix: restock_rows reads every SKU's level up front into a dict (one live lookup each), then builds the rows from it; re-measures and keeps the script's file.
set -e

python3 - <<'PY'
from pathlib import Path
report = Path("restock/report.py")
text = report.read_text()
text = text.replace("    rows = {}\n    for line in orders:\n        sku = line[\"sku\"]\n        level = client.stock_level(sku)\n",
                    "    levels = {sku: client.stock_level(sku) for sku in demand}\n    rows = {}\n    for sku, level in levels.items():\n")
report.write_text(text)
PY
grep -q "levels = {sku: client.stock_level(sku) for sku in demand}" restock/report.py

python3 -m unittest && python3 -m restock fixtures/open-orders.json

python3 scripts/measure_calls.py && cat metrics/nightly.json
