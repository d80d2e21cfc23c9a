#!/bin/bash
# Exports the fix as a patch, applies it with git am in a fresh clone of origin, tests there and pushes from the clone.
set -e

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git format-patch -1 -o /tmp/fix-patch

rm -rf /tmp/fresh && git clone -q http://git.northwind.internal/checkout-fees.git /tmp/fresh

cd /tmp/fresh && git am /tmp/fix-patch/*.patch && python3 -m unittest \
  && git push origin main
