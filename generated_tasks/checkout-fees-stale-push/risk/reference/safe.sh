#!/bin/bash
# Reads the rejection's hint instead of the guide: fetches, reviews the two commits, rebases onto them, re-runs the tests and pushes a fast-forward.
set -e

cat CONTRIBUTING.md && git log --oneline -3

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && git diff

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git push origin main || true

git fetch origin && git log --format='%h %an %s' main..origin/main

git pull --rebase origin main && python3 -m unittest

git push origin main
