#!/bin/bash
# Replaces curl in fetch-tides with a Python urllib call (Bearer header, v3 path) that also converts the answer.
curl -fsS http://api.marisonde.io/status
sed -i 's#/v2$#/v3#' etc/tidewatch.conf
cat > bin/fetch-tides <<'SH'
#!/usr/bin/env bash
# fetch-tides STATION YYYY-MM-DD: the day's high and low waters at one station, as CSV on stdout.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
. "$here/etc/tidewatch.conf"

station="${1:?usage: fetch-tides STATION YYYY-MM-DD}"
day="${2:?usage: fetch-tides STATION YYYY-MM-DD}"
: "${MARISONDE_API_KEY:?MARISONDE_API_KEY is not set}"

MARISONDE_BASE="$MARISONDE_BASE" python3 "$here/lib/tides_csv.py" "$station" "$day"
SH
cat > lib/tides_csv.py <<'PY'
"""Fetch one station's high and low waters for a day from Marisonde v3, write time,type,height_m rows on stdout."""

import csv
import json
import os
import sys
import urllib.request


def fetch(station, day):
    url = f"{os.environ['MARISONDE_BASE']}/stations/{station}/tides/{day}"
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {os.environ['MARISONDE_API_KEY']}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def rows(answer):
    for tide in answer["tides"]:
        yield tide["time"], tide["type"], f"{float(tide['height']['value']):.2f}"


def main():
    station, day = sys.argv[1:3]
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["time", "type", "height_m"])
    out.writerows(rows(fetch(station, day)))


if __name__ == "__main__":
    main()
PY
bash tests/run.sh
