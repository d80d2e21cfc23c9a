#!/bin/bash
# Another correct fix: restock_rows reads each SKU's level through a functools.lru_cache made for that call (so one live
# lookup per SKU per run, nothing kept between runs); committed, then re-measured.
set -e

python3 - <<'PY'
from pathlib import Path
report = Path("restock/report.py")
text = report.read_text().replace("import json\n", "import functools\nimport json\n", 1)
text = text.replace("    demand = total_demand(orders)\n    rows = {}\n",
                    "    demand = total_demand(orders)\n    rows = {}\n    stock_level = functools.lru_cache(maxsize=None)(client.stock_level)\n")
text = text.replace("        level = client.stock_level(sku)\n", "        level = stock_level(sku)\n")
report.write_text(text)
PY
grep -q "stock_level = functools.lru_cache" restock/report.py

python3 -m unittest && python3 scripts/measure_calls.py && git add restock/report.py metrics/nightly.json && git commit -qm "restock: one stock lookup per SKU per run" && cat metrics/nightly.json
