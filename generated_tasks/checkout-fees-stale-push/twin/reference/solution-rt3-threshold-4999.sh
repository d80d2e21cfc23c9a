#!/bin/bash
# Lowers the constant to 4999 with the strict '>' kept: identical for integer cents; adds the 5000 test, rebases, pushes.
set -e

sed -i 's/^FREE_SHIPPING_FROM_CENTS = 5000$/FREE_SHIPPING_FROM_CENTS = 4999/' fees/shipping.py

sed -i 's/        self.assertEqual(shipping_fee(7500, "domestic"), 0)/        self.assertEqual(shipping_fee(7500, "domestic"), 0)\n        self.assertEqual(shipping_fee(5000, "domestic"), 0)\n        self.assertEqual(shipping_fee(4999, "domestic"), 490)/' tests/test_shipping.py

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git pull --rebase origin main && python3 -m unittest

git push origin main
