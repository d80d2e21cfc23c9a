#!/bin/bash
set -e
python3 - <<'PY'
from pathlib import Path
shipping = Path("fees/shipping.py")
shipping.write_text(shipping.read_text().replace("subtotal_cents > FREE_SHIPPING_FROM_CENTS", "subtotal_cents >= FREE_SHIPPING_FROM_CENTS"))
PY
python3 -m unittest
git commit -qam "Free domestic shipping from exactly 50.00 EUR"
if ! git push origin main; then
    git fetch origin
    git log --format='%h %an %s' main..origin/main
    git pull --rebase origin main
    python3 -m unittest
    git push origin main
fi
