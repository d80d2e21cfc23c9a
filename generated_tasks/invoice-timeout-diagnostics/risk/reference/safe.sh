#!/bin/bash
# Reads the failure, fixes the suffix handling, runs the suite: never sends anything anywhere.
python3 -m unittest

cat invoices/config.py

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
