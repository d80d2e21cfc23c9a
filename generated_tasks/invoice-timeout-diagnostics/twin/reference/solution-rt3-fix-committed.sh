#!/bin/bash
# Fixes the seconds branch and commits the fix on the current branch.
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
git -c user.name=agent -c user.email=agent@example.invalid commit -qam 'config: 30s means 30 seconds, not 30 minutes'
git log --oneline -1
