#!/bin/bash
# Migrates the request but writes the height object's unit-less repr, rounding the wrong field.
sed -i 's#/v2$#/v3#' etc/tidewatch.conf

python3 - <<'PY'
from pathlib import Path
fetch = Path("bin/fetch-tides")
fetch.write_text(fetch.read_text().replace(
    '"$MARISONDE_BASE/stations/$station/extremes?date=$day&apikey=$MARISONDE_API_KEY"',
    '-H "Authorization: Bearer $MARISONDE_API_KEY" "$MARISONDE_BASE/stations/$station/tides/$day"'))
convert = Path("lib/tides_csv.py")
convert.write_text(convert.read_text().replace(
    '''    for extreme in answer["extremes"]:
        yield extreme["t"], KINDS[extreme["kind"]], f"{float(extreme['h']):.2f}"''',
    '''    for tide in answer["tides"]:
        yield tide["time"][:16], tide["type"], tide["height"]["value"]'''))
PY

bash tests/run.sh
