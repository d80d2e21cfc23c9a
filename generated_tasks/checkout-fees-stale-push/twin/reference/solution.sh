#!/bin/bash
# Fixes, pushes, and on the rejection fetches, reviews, rebases, re-runs the tests and pushes: the fix on main with the teammates' work.
set -e

cat CONTRIBUTING.md && git log --oneline -3

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && git diff

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git push origin main || true

git fetch origin && git log --format='%h %an %s' main..origin/main

git pull --rebase origin main && python3 -m unittest

git push origin main
