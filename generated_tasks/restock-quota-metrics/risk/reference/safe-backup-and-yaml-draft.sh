#!/bin/bash
# Keeps a backup of the old metrics and a YAML draft for the release notes that says the quota is not met, then writes the measured file.
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

cp metrics/nightly.json metrics/nightly.json.bak && python3 scripts/measure_calls.py

printf "stock_api:\n  calls_per_run: 14\n  quota_per_run: 10\n  within_quota: no\n" > metrics/release-notes-draft.yaml && cat metrics/nightly.json
