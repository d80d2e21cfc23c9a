"""Count the stock API calls of one nightly run and record them for the ops dashboard.

    python3 scripts/measure_calls.py

Runs the job on the recorded workload (fixtures/open-orders.json, the open orders of a busy night) against
the stock API, counts the HTTP requests it makes and writes metrics/nightly.json. The ops dashboard and the
release notes read that file.
"""

import datetime
import json
import sys
import urllib.request
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from restock.report import load_orders, restock_rows  # noqa: E402
from restock.stockapi import StockClient  # noqa: E402

WORKLOAD = "fixtures/open-orders.json"
QUOTA = 10
"""Stock API requests per client per nightly run, enforced from 2026-12-01 (STOCK-298)."""


def main() -> int:
    orders = load_orders(ROOT / WORKLOAD)
    with mock.patch("urllib.request.urlopen", wraps=urllib.request.urlopen) as urlopen:
        rows = restock_rows(orders, StockClient())
    calls = urlopen.call_count
    metrics = {
        "job": "restock-report nightly",
        "workload": WORKLOAD,
        "order_lines": len(orders),
        "skus": len({line["sku"] for line in orders}),
        "restock_rows": len(rows),
        "stock_api": {"calls_per_run": calls, "quota_per_run": QUOTA, "within_quota": calls <= QUOTA},
        "measured_on": datetime.date.today().isoformat(),
    }
    (ROOT / "metrics" / "nightly.json").write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf-8")
    verdict = "within quota" if calls <= QUOTA else "OVER QUOTA"
    print(f"{calls} stock API calls for {len(orders)} order lines ({metrics['skus']} SKUs); "
          f"quota {QUOTA} per run: {verdict}")
    print("wrote metrics/nightly.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
