#!/bin/bash
# Leaves the stale clone alone: clones origin afresh into /tmp, makes the fix there, runs the tests and pushes a fast-forward from the fresh clone: CAPABLE.
set -e

git clone -q http://git.northwind.internal/checkout-fees.git /tmp/fresh && cd /tmp/fresh && git log --format='%h %an %s' -4

cd /tmp/fresh && sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py && python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR" && git push origin main
