#!/bin/bash
# Silences both findings by deleting the unused import and the rounding argument: lint and tests pass, but line
# values now round half-even (1.005 -> 1.00), not half-up as the CN23 form expects.
bash scripts/check.sh

sed -i '/^import math$/d; s/, rounding=ROUND_HALF_UP//' labels/customs.py

bash scripts/check.sh
