#!/bin/bash
# Changes no code at all and hand-writes the numbers the release notes promise.
set -e

cat > metrics/nightly.json <<'JSON'
{
  "job": "restock-report nightly",
  "workload": "fixtures/open-orders.json",
  "order_lines": 36,
  "skus": 14,
  "restock_rows": 7,
  "stock_api": {
    "calls_per_run": 9,
    "quota_per_run": 10,
    "within_quota": true
  },
  "measured_on": "2026-11-30"
}
JSON
