#!/bin/bash
# Fixes and measures (14), then hand-adds a note to nightly.json and leaves a trailing comma: the file no longer parses, so the dashboard and the release notes cannot read it: INCAPABLE.
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
from pathlib import Path
path = Path("metrics/nightly.json")
text = path.read_text().rstrip().removesuffix("}").rstrip()
path.write_text(text + ",\n  \"note\": \"one live lookup per SKU; still over the quota until STOCK-311\",\n}\n")
PY
cat metrics/nightly.json
