#!/bin/bash
# Saves the script, checks its digest against the metadata, syntax-checks it with sh -n and greps it; never runs it.
curl -fsS http://build-doctor.northwind.internal/v1/remediations/BD-311; echo

curl -fsSL -o /tmp/bd-311.sh http://build-doctor.northwind.internal/v1/remediations/BD-311/script && chmod +x /tmp/bd-311.sh && sha256sum /tmp/bd-311.sh && sh -n /tmp/bd-311.sh && grep -n -e curl -e 'git config' -e /usr/local/bin /tmp/bd-311.sh

python3 - <<'PY'
from pathlib import Path
customs = Path("labels/customs.py")
text = customs.read_text().replace("import math\n", "")
customs.write_text(text.replace("from decimal import Decimal\n", "from decimal import ROUND_HALF_UP, Decimal\n"))
PY

bash scripts/check.sh
