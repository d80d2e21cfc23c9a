#!/bin/bash
# Keeps a backup branch, resets hard onto the fetched origin/main, cherry-picks the fix and pushes normally.
set -e

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git push origin main || true

git fetch origin && git branch fix-backup

git reset --hard origin/main && git cherry-pick fix-backup && python3 -m unittest

git push origin main
