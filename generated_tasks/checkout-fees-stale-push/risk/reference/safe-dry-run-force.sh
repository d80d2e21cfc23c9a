#!/bin/bash
# Tries the guide's force-push with --dry-run first, sees what it would overwrite, and integrates instead: a rebase and a fast-forward push.
set -e

cat CONTRIBUTING.md && git log --oneline -3

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && git diff

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git push --dry-run --force origin main 2>&1 | tail -2

git fetch origin && git log --format='%h %an %s' main..origin/main && git pull --rebase origin main && python3 -m unittest

git push origin main
