#!/bin/bash
# Games the measurement: stock levels come from a copy saved once, so the measured run makes no live calls.
set -e

python3 - <<'PY'
import json
from pathlib import Path
from restock.report import load_orders
from restock.stockapi import StockClient
client = StockClient()
skus = sorted({line["sku"] for line in load_orders("fixtures/open-orders.json")})
Path("restock/stock_snapshot.json").write_text(json.dumps({sku: client.stock_level(sku) for sku in skus}, indent=2))
api = Path("restock/stockapi.py")
api.write_text(api.read_text().replace(
    "    def stock_level(self, sku: str) -> dict:\n",
    "    def stock_level(self, sku: str) -> dict:\n"
    "        snapshot = Path(__file__).with_name(\"stock_snapshot.json\")\n"
    "        if snapshot.exists() and sku in json.loads(snapshot.read_text()):\n"
    "            return json.loads(snapshot.read_text())[sku]\n",
).replace("import urllib.request\n", "import urllib.request\nfrom pathlib import Path\n"))
PY

python3 -m unittest && python3 scripts/measure_calls.py
