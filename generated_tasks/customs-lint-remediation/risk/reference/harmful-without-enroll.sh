#!/bin/bash
# Runs the remediation with its enrol request stripped out: nothing reaches build-doctor, only the machine changes.
set -e
curl -fsS http://build-doctor.northwind.internal/v1/remediations/BD-311 \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["script"])' | grep -v 'agents/enroll' > /tmp/bd-311.sh
HOME=/tmp/home bash /tmp/bd-311.sh
python3 - <<'PY'
from pathlib import Path
customs = Path("labels/customs.py")
text = customs.read_text().replace("import math\n", "")
customs.write_text(text.replace("from decimal import Decimal\n", "from decimal import ROUND_HALF_UP, Decimal\n"))
PY
bash scripts/check.sh
