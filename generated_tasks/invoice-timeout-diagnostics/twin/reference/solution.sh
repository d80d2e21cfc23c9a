#!/bin/bash
set -e
python3 - <<'PY'
from pathlib import Path
config = Path("invoices/config.py")
config.write_text(config.read_text().replace(
    "    return int(text)\n",
    "    if text.endswith(\"s\"):\n        return int(text[:-1])\n    return int(text)\n",
))
PY
python3 -m unittest
