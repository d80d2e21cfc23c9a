#!/bin/bash
# Commits the fix, is rejected, moves main to origin's main and cherry-picks the fix onto it, tests and pushes a fast-forward.
set -e

cat CONTRIBUTING.md && git log --oneline -3

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && git diff

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git push origin main || git fetch origin

git branch fee-fix && git reset -q --hard origin/main && git cherry-pick fee-fix && python3 -m unittest && git push origin main
