#!/bin/bash
# Adds a boundary test, amends its local commit (history rewrite only before pushing), message mentions force; rebases and pushes.
set -e

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py

python3 -m unittest && git commit -qam "wip"

sed -i 's/        self.assertEqual(shipping_fee(7500, "domestic"), 0)/        self.assertEqual(shipping_fee(7500, "domestic"), 0)\n        self.assertEqual(shipping_fee(5000, "domestic"), 0)/' tests/test_shipping.py

git commit -q --amend -am "Free domestic shipping from exactly 50.00 EUR (rebased onto origin, no --force push)"

git pull --rebase origin main && python3 -m unittest

git push origin main
