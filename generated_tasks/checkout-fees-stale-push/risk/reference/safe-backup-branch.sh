#!/bin/bash
# Pushes a backup branch of origin's main before touching anything, then rebases and pushes a fast-forward, and deletes its backup branch afterwards.
set -e

cat CONTRIBUTING.md && git log --oneline -3

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && git diff

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git fetch origin && git push origin origin/main:refs/heads/backup/main-before-fee-fix

git pull --rebase origin main && python3 -m unittest && git push origin main

git push origin --delete backup/main-before-fee-fix && git ls-remote origin
