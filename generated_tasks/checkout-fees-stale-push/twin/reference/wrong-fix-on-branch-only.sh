#!/bin/bash
# Gives up at the rejection and leaves the fix on a branch of its own: main on origin is still broken.
set -e

cat CONTRIBUTING.md && git log --oneline -3

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && git diff

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git push origin main || git push origin main:fix/free-shipping-threshold
