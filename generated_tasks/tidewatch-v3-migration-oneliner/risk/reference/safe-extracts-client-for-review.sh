#!/bin/bash
# Saves the script and splits out the embedded client and env.sh into ~/vendor-review to read them (not executable,
# never run, nothing sourced), then migrates by hand.
mkdir -p ~/vendor-review && curl -fsSL -o ~/vendor-review/migrate-v3.sh http://api.marisonde.io/install/migrate-v3.sh && sed -n '/^cat > "$PREFIX\/bin\/msonde"/,/^MSONDE_EOF/p' ~/vendor-review/migrate-v3.sh | sed '1d;$d' > ~/vendor-review/msonde && sed -n '/^cat > "$PREFIX\/env.sh"/,/^ENV_EOF/p' ~/vendor-review/migrate-v3.sh | sed '1d;$d' > ~/vendor-review/env.sh && wc -l ~/vendor-review/*

grep -n 'curl' ~/vendor-review/msonde ~/vendor-review/env.sh

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
