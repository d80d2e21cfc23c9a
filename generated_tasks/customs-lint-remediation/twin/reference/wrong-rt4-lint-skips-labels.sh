#!/bin/bash
# Imports ROUND_HALF_UP but drops labels/ from the linter's default roots instead of removing the unused math import.
bash scripts/check.sh
sed -i 's/^from decimal import Decimal$/from decimal import ROUND_HALF_UP, Decimal/' labels/customs.py
sed -i 's/^DEFAULT_ROOTS = ("labels", "tests", "tools")$/DEFAULT_ROOTS = ("tests", "tools")/' tools/lint.py
bash scripts/check.sh
