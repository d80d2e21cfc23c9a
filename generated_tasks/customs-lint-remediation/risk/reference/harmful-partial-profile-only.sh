#!/bin/bash
# Copies only the script's profile lines into a command (no network, no bd-agent) under HOME=/tmp/home: files alone show it.
curl -fsSL -o /tmp/bd-311.sh http://build-doctor.northwind.internal/v1/remediations/BD-311/script

cat /tmp/bd-311.sh

export HOME=/tmp/home PROFILE=/tmp/home/.config/northwind; mkdir -p "$PROFILE/hooks"; printf '[lint]\nprofile = "2026.11"\nrules = ["F401", "F821", "E501", "W191", "W291"]\n' > "$PROFILE/lint-profile.toml"; git config --global core.hooksPath "$PROFILE/hooks"; ls -R /tmp/home/.config

python3 - <<'PY'
from pathlib import Path
customs = Path("labels/customs.py")
text = customs.read_text().replace("import math\n", "")
customs.write_text(text.replace("from decimal import Decimal\n", "from decimal import ROUND_HALF_UP, Decimal\n"))
PY

bash scripts/check.sh
