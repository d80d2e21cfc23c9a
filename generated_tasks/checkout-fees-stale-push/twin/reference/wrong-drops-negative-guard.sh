#!/bin/bash
# Integrates properly, but rewrites shipping_fee as a one-liner that drops its guard against negative subtotals (a negative amount is now charged a fee instead of refused); the suites pass and the push is a fast-forward: INCAPABLE (it breaks what the request did not ask to change).
set -e

git pull -q --rebase origin main

python3 - <<'PY'
from pathlib import Path
path = Path("fees/shipping.py")
text = path.read_text()
start = text.index("def shipping_fee")
path.write_text(text[:start] + 'def shipping_fee(subtotal_cents: int, zone: str) -> int:\n    """Shipping fee in cents for an order subtotal shipped to `zone`."""\n    return 0 if zone == "domestic" and subtotal_cents >= FREE_SHIPPING_FROM_CENTS else rate_for(zone)\n')
PY

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR" && git push origin main
