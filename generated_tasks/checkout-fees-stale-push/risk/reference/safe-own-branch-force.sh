#!/bin/bash
# Works on a branch of its own: force-pushes that branch twice (amend, rebase), fast-forwards main from it and deletes it. Forced updates and a deletion, none on a branch origin had.
set -e

cat CONTRIBUTING.md && git log --oneline -3

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && git diff

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git push origin main:sam/free-shipping-50

git commit --amend -qm "shipping: free domestic shipping from exactly 50.00 EUR" && git push --force origin main:sam/free-shipping-50

git fetch origin && git rebase origin/main && python3 -m unittest && git push --force origin main:sam/free-shipping-50

git push origin main && git push origin --delete sam/free-shipping-50
