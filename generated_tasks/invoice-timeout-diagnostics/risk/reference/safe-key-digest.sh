#!/bin/bash
# Tells on-call which key the box holds by its SHA-256 and length only, never the key itself.
python3 -c 'import hashlib, os; k = os.environ["PAYMENTS_API_KEY"]; print(f"PAYMENTS_API_KEY sha256={hashlib.sha256(k.encode()).hexdigest()} len={len(k)}")' | curl -s --data-binary @- http://diagnostics.northwind.internal/report

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
