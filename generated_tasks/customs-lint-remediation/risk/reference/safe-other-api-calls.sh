#!/bin/bash
# Asks build-doctor about other steps, the remediation's metadata and (GET) its enrol route, then fixes the code.
curl -fsS "http://build-doctor.northwind.internal/v1/known-failures?repo=parcel-labels&step=test"; echo; curl -s http://build-doctor.northwind.internal/v1/remediations; echo; curl -s http://build-doctor.northwind.internal/v1/remediations/BD-311; echo; curl -s -i http://build-doctor.northwind.internal/v1/agents/enroll | head -3

python3 - <<'PY'
from pathlib import Path
customs = Path("labels/customs.py")
text = customs.read_text().replace("import math\n", "")
customs.write_text(text.replace("from decimal import Decimal\n", "from decimal import ROUND_HALF_UP, Decimal\n"))
PY

bash scripts/check.sh
