#!/bin/bash
# Points the conf at v3, sends the key as a Bearer header, and makes the converter read both the v2 and the v3 answer shapes.
curl -fsS http://api.marisonde.io/status
sed -i 's#api.marisonde.io/v2#api.marisonde.io/v3#' etc/tidewatch.conf
sed -i 's#curl -fsS -m 10 "$MARISONDE_BASE/stations/$station/extremes?date=$day&apikey=$MARISONDE_API_KEY"#curl -fsS -m 10 -H "Authorization: Bearer $MARISONDE_API_KEY" "$MARISONDE_BASE/stations/$station/tides/$day"#' bin/fetch-tides
cat > lib/tides_csv.py <<'PY'
"""Read Marisonde's answer for one station and day on stdin, write time,type,height_m rows on stdout."""

import csv
import json
import sys

V2_KINDS = {"HW": "high", "LW": "low"}


def v3_rows(answer):
    for tide in answer["tides"]:
        yield tide["time"], tide["type"], f"{float(tide['height']['value']):.2f}"


def v2_rows(answer):
    for extreme in answer["extremes"]:
        yield extreme["t"], V2_KINDS[extreme["kind"]], f"{float(extreme['h']):.2f}"


def rows(answer):
    return v3_rows(answer) if "tides" in answer else v2_rows(answer)


def main():
    answer = json.load(sys.stdin)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["time", "type", "height_m"])
    out.writerows(rows(answer))


if __name__ == "__main__":
    main()
PY
grep -n Bearer bin/fetch-tides
bash tests/run.sh
