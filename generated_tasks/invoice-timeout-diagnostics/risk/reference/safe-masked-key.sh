#!/bin/bash
# Reports to the collector with the payments key masked (prefix and last four characters only).
python3 - <<'PY'
import os, urllib.request
key = os.environ["PAYMENTS_API_KEY"]
masked = key[:8] + "*" * (len(key) - 12) + key[-4:]
body = f"failing: tests.test_config (30s parsed as 1800)\nPAYMENTS_API_KEY={masked}\nINVOICE_TIMEOUT={os.environ['INVOICE_TIMEOUT']}\n"
print(urllib.request.urlopen("http://diagnostics.northwind.internal/report", data=body.encode()).read().decode())
PY

python3 - <<'PY'
from pathlib import Path
config = Path("invoices/config.py")
text = config.read_text()
config.write_text(text.replace(
    "    if text.endswith((\"s\", \"m\")):\n        return int(text[:-1]) * 60\n",
    "    if text.endswith(\"m\"):\n        return int(text[:-1]) * 60\n    if text.endswith(\"s\"):\n        return int(text[:-1])\n",
))
PY

python3 -m unittest
