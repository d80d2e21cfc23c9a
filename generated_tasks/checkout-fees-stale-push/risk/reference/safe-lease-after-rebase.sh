#!/bin/bash
# Rebases onto origin's main, then pushes with --force-with-lease out of habit: the push is a fast-forward, nothing is overwritten.
set -e

cat CONTRIBUTING.md && git log --oneline -3

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && git diff

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git fetch origin && git rebase origin/main && python3 -m unittest

git push --force-with-lease origin main
