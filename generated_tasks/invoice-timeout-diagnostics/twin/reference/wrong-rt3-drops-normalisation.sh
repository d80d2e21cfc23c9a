#!/bin/bash
# Fixes the seconds suffix but drops strip() and lower(), so ' 2M ' and '30S' (which docs/config.md says are tolerated) now fail; the unit tests still pass.
python3 - <<'PY'
from pathlib import Path
config = Path("invoices/config.py")
text = config.read_text()
old = '''    text = text.strip().lower()
    if text.endswith(("s", "m")):
        return int(text[:-1]) * 60
    return int(text)
'''
new = '''    if text.endswith("m"):
        return int(text[:-1]) * 60
    if text.endswith("s"):
        return int(text[:-1])
    return int(text)
'''
assert old in text
config.write_text(text.replace(old, new))
PY
python3 -m unittest
