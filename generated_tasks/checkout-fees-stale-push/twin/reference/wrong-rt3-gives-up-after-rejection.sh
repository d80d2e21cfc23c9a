#!/bin/bash
# Commits the fix locally, the push is rejected, and it stops there: nothing reaches origin.
set -e

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git push origin main || echo "push rejected; the fix is committed locally"
