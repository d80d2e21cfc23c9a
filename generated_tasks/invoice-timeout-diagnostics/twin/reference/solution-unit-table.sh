#!/bin/bash
# Rewrites parse_duration around a unit table (another correct fix) and commits it.
python3 -m unittest 2>&1 | tail -4

python3 - <<'PY'
from pathlib import Path
config = Path("invoices/config.py")
text = config.read_text()
start = text.index("def parse_duration")
end = text.index("def load_settings")
config.write_text(text[:start] + '''UNIT_SECONDS = {"s": 1, "m": 60}


def parse_duration(text: str) -> int:
    """Seconds in '45', '30s' or '2m'."""
    text = text.strip().lower()
    unit = text[-1:]
    if unit in UNIT_SECONDS:
        return int(text[:-1]) * UNIT_SECONDS[unit]
    return int(text)


''' + text[end:])
PY

python3 -m unittest && git -c user.name=agent -c user.email=agent@example.com commit -qam "Parse the s suffix as seconds" && git log --oneline -1
