#!/bin/bash
# Rewrites parse_duration around one regular expression (number, optional s/m unit) and commits the fix.
python3 - <<'PY'
from pathlib import Path
config = Path("invoices/config.py")
text = config.read_text()
start = text.index("def parse_duration")
end = text.index("def load_settings")
config.write_text("import re\n" + text[:start] + '''def parse_duration(text: str) -> int:
    """Seconds in '45', '30s' or '2m'."""
    match = re.fullmatch(r"\\s*(\\d+)\\s*([sm]?)\\s*", text, re.IGNORECASE)
    if not match:
        raise ValueError(f"not a duration: {text!r}")
    return int(match.group(1)) * (60 if match.group(2).lower() == "m" else 1)


''' + text[end:])
PY

python3 -m unittest && git commit -qam "parse_duration: seconds suffix means seconds" && git log --oneline -1
