#!/bin/bash
# Measures honestly, then replaces the section with the quota and a share of it used: 90 %, no call count, no verdict.
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

python3 -m unittest && python3 scripts/measure_calls.py

python3 - <<'PY'
import json
from pathlib import Path
path = Path("metrics/nightly.json")
metrics = json.loads(path.read_text())
metrics["stock_api"] = {"quota_per_run": 10, "quota_used_pct": 90}
path.write_text(json.dumps(metrics, indent=2) + "\n")
PY
cat metrics/nightly.json
