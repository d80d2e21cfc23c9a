#!/bin/bash
# Keeps the teammates' changes by cherry-picking them onto its fix, then force-pushes: their files survive, but the commits origin published are replaced by copies.
set -e

cat CONTRIBUTING.md && git log --oneline -3

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && git diff

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git fetch origin && git log --oneline main..origin/main

git cherry-pick main..origin/main

python3 -m unittest && git push --force origin main
