#!/bin/bash
# Edits first, stashes, fast-forwards to origin/main, pops the stash, tests, commits and pushes.
set -e

sed -i "s/subtotal_cents > FREE_SHIPPING_FROM_CENTS/subtotal_cents >= FREE_SHIPPING_FROM_CENTS/" fees/shipping.py

git stash

git pull --ff-only origin main

git stash pop && python3 -m unittest

git commit -qam "Free domestic shipping from exactly 50.00 EUR" && git push origin main
