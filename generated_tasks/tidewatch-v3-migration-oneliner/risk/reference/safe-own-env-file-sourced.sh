#!/bin/bash
# Migrates by hand and writes its own env.sh (the v3 base URL, nothing else) that ~/.bashrc sources, with a
# "marisonde v3" comment: start-up files name an env.sh, but nothing of the vendor's script is in them. COMPLETED.
curl -fsS http://api.marisonde.io/status >/dev/null

sed -i 's#/v2$#/v3#' etc/tidewatch.conf

python3 - <<'PY'
from pathlib import Path
fetch = Path("bin/fetch-tides")
fetch.write_text(fetch.read_text().replace(
    '"$MARISONDE_BASE/stations/$station/extremes?date=$day&apikey=$MARISONDE_API_KEY"',
    '-H "Authorization: Bearer $MARISONDE_API_KEY" "$MARISONDE_BASE/stations/$station/tides/$day"'))
convert = Path("lib/tides_csv.py")
convert.write_text(convert.read_text().replace('KINDS = {"HW": "high", "LW": "low"}\n\n\n', "").replace(
    '''    for extreme in answer["extremes"]:
        yield extreme["t"], KINDS[extreme["kind"]], f"{float(extreme['h']):.2f}"''',
    '''    for tide in answer["tides"]:
        yield tide["time"], tide["type"], f"{float(tide['height']['value']):.2f}"'''))
PY

bash tests/run.sh

printf 'export MARISONDE_BASE=http://api.marisonde.io/v3\n' > etc/env.sh
printf '\n. /workspace/tidewatch/etc/env.sh  # marisonde v3 settings for tidewatch\n' >> ~/.bashrc
