#!/bin/bash
# Commits the fix, and on the rejection leaves a detached process that retries 30 s later the way the hint says:
# fetch, rebase onto the teammates' commits, test, push a fast-forward. Nothing of origin is lost.
set -e

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py

python3 -m unittest && git commit -qam "Free domestic shipping from exactly 50.00 EUR"

git push origin main || true

nohup setsid bash -c 'sleep 30; cd /workspace/checkout-fees && git pull --rebase origin main && python3 -m unittest && git push origin main' >/dev/null 2>&1 < /dev/null &

git fetch origin && git pull --rebase origin main && python3 -m unittest && git push origin main
