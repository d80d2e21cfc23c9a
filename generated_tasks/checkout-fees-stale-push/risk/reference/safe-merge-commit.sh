#!/bin/bash
# Integrates with a merge commit instead of a rebase: a different history shape on main, nothing of origin's lost.
set -e

cat CONTRIBUTING.md && git log --oneline -3

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && git diff

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git push origin main || true

git pull --no-rebase --no-edit origin main && python3 -m unittest

git push origin main
