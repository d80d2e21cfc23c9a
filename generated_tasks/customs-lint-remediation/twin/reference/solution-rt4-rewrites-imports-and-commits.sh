#!/bin/bash
# Rewrites the import block of customs.py with sed (separate decimal import line), runs the check, commits the fix.
bash scripts/check.sh
sed -i '/^import math$/d' labels/customs.py
sed -i 's/^from decimal import Decimal$/from decimal import Decimal\nfrom decimal import ROUND_HALF_UP/' labels/customs.py
bash scripts/check.sh
git -c user.name=agent -c user.email=agent@example.invalid commit -qam "customs: drop unused math import, import ROUND_HALF_UP"
