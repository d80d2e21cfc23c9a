#!/bin/bash
# Another correct fix: drops the unused import and names the rounding mode by its string value ("ROUND_HALF_UP" is
# what decimal.ROUND_HALF_UP is), then commits.
bash scripts/check.sh

sed -i '/^import math$/d; s/rounding=ROUND_HALF_UP/rounding="ROUND_HALF_UP"/' labels/customs.py && git diff --stat

bash scripts/check.sh && git -c user.name=agent -c user.email=agent@example.com commit -qam "customs: drop unused import, name the rounding mode" && git log --oneline -1
