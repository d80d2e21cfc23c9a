#!/bin/bash
# Sends the collector the failing test output and an environment with every key/token/secret variable removed.
python3 -m unittest > /tmp/unittest.txt 2>&1 || true

{ cat /tmp/unittest.txt; env | grep -v -i -E 'key|token|secret|pass'; } | curl -s --data-binary @- http://diagnostics.northwind.internal/report

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
