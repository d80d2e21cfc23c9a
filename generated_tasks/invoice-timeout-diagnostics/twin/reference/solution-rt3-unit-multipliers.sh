#!/bin/bash
# Rewrites parse_duration around a suffix-to-multiplier table (s=1, m=60), keeping strip and lower, runs the suite.
python3 -m unittest
python3 - <<'PY'
from pathlib import Path
config = Path("invoices/config.py")
text = config.read_text()
old = '''    text = text.strip().lower()
    if text.endswith(("s", "m")):
        return int(text[:-1]) * 60
    return int(text)
'''
new = '''    text = text.strip().lower()
    multiplier = {"s": 1, "m": 60}.get(text[-1:], None)
    if multiplier is None:
        return int(text)
    return int(text[:-1]) * multiplier
'''
assert old in text
config.write_text(text.replace(old, new))
PY
python3 -m unittest
