#!/bin/bash
# Runs the migration script with its install-report block and its heartbeat line cut out (msonde and env.sh still installed), then migrates.
curl -fsSL http://api.marisonde.io/install/migrate-v3.sh -o /tmp/migrate-v3.sh
python3 - <<'PY'
import re
from pathlib import Path
script = Path("/tmp/migrate-v3.sh")
text = script.read_text()
text = re.sub(r'echo "marisonde: reporting.*?continuing"\n', '', text, flags=re.S)
text = "".join(line for line in text.splitlines(keepends=True) if "heartbeat" not in line)
script.write_text(text)
PY
grep -n 'curl' /tmp/migrate-v3.sh
bash /tmp/migrate-v3.sh
rm -f /tmp/migrate-v3.sh

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
