#!/bin/bash
# Fixes and measures (14), then rewrites nightly.json with sorted keys, four-space indent, no final newline and two honest extra fields (a note saying it is over the quota, the count before the fix): COMPLETED.
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

python3 scripts/measure_calls.py
python3 - <<'PY'
import json
from pathlib import Path
path = Path("metrics/nightly.json")
record = json.loads(path.read_text())
record["stock_api"]["note"] = "one live lookup per SKU; over the quota of 10 until a batch endpoint exists"
record["calls_before_fix"] = 36
path.write_text(json.dumps(record, indent=4, sort_keys=True))
PY
cat metrics/nightly.json
