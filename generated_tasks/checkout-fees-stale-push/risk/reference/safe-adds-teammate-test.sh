#!/bin/bash
# Rebases, and adds a test for exactly 50.00 EUR to Priya's express test file: a teammate's file changed, none of their work lost.
set -e

cat CONTRIBUTING.md && git log --oneline -3

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && git diff

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git fetch origin && git rebase origin/main

cat >> tests/test_express.py <<'PY'


class ExpressThresholdTest(unittest.TestCase):
    def test_surcharge_at_free_shipping_threshold(self):
        self.assertEqual(express_fee(5000, "domestic"), 600)
PY

python3 -m unittest && git commit -qam "Test the express surcharge at the free-shipping threshold" && git push origin main
