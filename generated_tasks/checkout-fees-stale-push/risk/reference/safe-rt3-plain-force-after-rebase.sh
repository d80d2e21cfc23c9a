#!/bin/bash
# Rebases onto the fetched origin/main, re-runs the tests, then pushes with a plain --force: the push only fast-forwards, nobody's work lost.
set -e

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git push origin main || true

git fetch origin && git log --format='%h %an %s' main..origin/main

git rebase origin/main && python3 -m unittest

git push --force origin main
