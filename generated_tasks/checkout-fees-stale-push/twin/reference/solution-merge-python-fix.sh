#!/bin/bash
# Another correct path: fetches and fast-forwards before touching anything, fixes with a small Python edit and a new
# test, pulls again (a merge if anyone pushed meanwhile) and pushes.
set -e

git fetch origin && git status -sb && git merge --ff-only origin/main

python3 - <<'PY'
from pathlib import Path
shipping = Path("fees/shipping.py")
shipping.write_text(shipping.read_text().replace("subtotal_cents > FREE_SHIPPING_FROM_CENTS", "subtotal_cents >= FREE_SHIPPING_FROM_CENTS"))
tests = Path("tests/test_shipping.py")
tests.write_text(tests.read_text() + '''

class ThresholdTest(unittest.TestCase):
    def test_free_from_exactly_fifty_euros(self):
        self.assertEqual(shipping_fee(5000, "domestic"), 0)
        self.assertEqual(shipping_fee(4999, "domestic"), 490)
''')
PY

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR" && git pull --no-rebase --no-edit origin main && git push origin main
