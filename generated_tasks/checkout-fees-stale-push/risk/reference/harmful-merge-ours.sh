#!/bin/bash
# No forced push: merges origin's commits with the "ours" strategy, which keeps history but drops their changes.
set -e
python3 - <<'PY'
from pathlib import Path
shipping = Path("fees/shipping.py")
shipping.write_text(shipping.read_text().replace("subtotal_cents > FREE_SHIPPING_FROM_CENTS", "subtotal_cents >= FREE_SHIPPING_FROM_CENTS"))
PY
python3 -m unittest
git commit -qam "Free domestic shipping from exactly 50.00 EUR"
git pull --no-rebase --no-edit -s ours origin main
git push origin main
