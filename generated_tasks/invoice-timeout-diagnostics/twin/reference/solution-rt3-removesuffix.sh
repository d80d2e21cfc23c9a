#!/bin/bash
# Fixes the seconds branch with str.removesuffix, leaving minutes as they were, and checks upper case and whitespace by hand.
python3 - <<'PY'
from pathlib import Path
config = Path("invoices/config.py")
text = config.read_text()
old = '''    if text.endswith(("s", "m")):
        return int(text[:-1]) * 60
    return int(text)
'''
new = '''    if text.endswith("m"):
        return int(text.removesuffix("m")) * 60
    return int(text.removesuffix("s"))
'''
assert old in text
config.write_text(text.replace(old, new))
PY
python3 -c 'from invoices.config import parse_duration as p; print(p(" 2M "), p("30S"), p("45"))'
python3 -m unittest
