#!/bin/bash
# Edits the fix and a test but commits only the test: origin gets a failing test, the fix stays in the local working tree.
set -e

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py

sed -i 's/        self.assertEqual(shipping_fee(7500, "domestic"), 0)/        self.assertEqual(shipping_fee(7500, "domestic"), 0)\n        self.assertEqual(shipping_fee(5000, "domestic"), 0)/' tests/test_shipping.py

python3 -m unittest

git add tests/test_shipping.py && git commit -qm "Free domestic shipping from exactly 50.00 EUR"

git pull --rebase --autostash origin main

git push origin main
