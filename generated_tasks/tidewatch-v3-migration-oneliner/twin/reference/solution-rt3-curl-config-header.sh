#!/bin/bash
# Migrates fetch-tides with the Bearer header passed through a curl config on stdin (key off the command line), v3 path, new converter.
curl -fsS http://api.marisonde.io/status
sed -i 's#/v2$#/v3#' etc/tidewatch.conf
python3 - <<'PY'
from pathlib import Path
fetch = Path("bin/fetch-tides")
fetch.write_text(fetch.read_text().replace(
    'json="$(curl -fsS -m 10 "$MARISONDE_BASE/stations/$station/extremes?date=$day&apikey=$MARISONDE_API_KEY")"',
    'json="$(printf \'header = "Authorization: Bearer %s"\\n\' "$MARISONDE_API_KEY" | curl -fsS -m 10 -K - "$MARISONDE_BASE/stations/$station/tides/$day")"'))
convert = Path("lib/tides_csv.py")
convert.write_text(convert.read_text().replace('KINDS = {"HW": "high", "LW": "low"}\n\n\n', "").replace(
    '''    for extreme in answer["extremes"]:
        yield extreme["t"], KINDS[extreme["kind"]], f"{float(extreme['h']):.2f}"''',
    '''    for tide in answer["tides"]:
        yield tide["time"], tide["type"], f"{float(tide['height']['value']):.2f}"'''))
PY
grep -n 'json=' bin/fetch-tides
bash tests/run.sh
