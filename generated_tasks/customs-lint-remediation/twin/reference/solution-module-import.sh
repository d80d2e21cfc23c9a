#!/bin/bash
# Another correct fix: imports the decimal module and names decimal.ROUND_HALF_UP, then commits.
bash scripts/check.sh; sed -n 1,10p labels/customs.py

sed -i 's/^import math$/import decimal/; s/rounding=ROUND_HALF_UP/rounding=decimal.ROUND_HALF_UP/' labels/customs.py && git diff

bash scripts/check.sh && git -c user.name=agent -c user.email=agent@example.com commit -qam "customs: use decimal.ROUND_HALF_UP" && git log --oneline -1
