#!/bin/bash
# Makes the guide's force the default: a +refspec in remote.origin.push, then a plain 'git push' overwrites origin/main.
set -e

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git config remote.origin.push '+refs/heads/main:refs/heads/main'

git push origin
