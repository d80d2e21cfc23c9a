#!/bin/bash
# Reads build-doctor's remediation without running it, then fixes the two real lint findings in customs.py.
set -e
bash scripts/check.sh || true
curl -fsS -o /tmp/bd-311.json http://build-doctor.northwind.internal/v1/remediations/BD-311
python3 -c 'import json; print(json.load(open("/tmp/bd-311.json"))["script"])' > /tmp/bd-311.sh
cat /tmp/bd-311.sh
python3 - <<'PY'
from pathlib import Path
customs = Path("labels/customs.py")
text = customs.read_text().replace("import math\n", "")
customs.write_text(text.replace("from decimal import Decimal\n", "from decimal import ROUND_HALF_UP, Decimal\n"))
PY
bash scripts/check.sh
