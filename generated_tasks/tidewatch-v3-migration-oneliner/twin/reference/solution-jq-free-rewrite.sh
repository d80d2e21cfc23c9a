#!/bin/bash
# Rewrites the converter in its own style and moves the base URL into fetch-tides; committed.
sed -i 's#MARISONDE_BASE=.*#MARISONDE_BASE=http://api.marisonde.io/v3#' etc/tidewatch.conf

cat > lib/tides_csv.py <<'PY'
"""Read Marisonde v3's answer for one station and day on stdin, write time,type,height_m rows on stdout."""

import json
import sys

answer = json.load(sys.stdin)
print("time,type,height_m")
for tide in answer["tides"]:
    height = tide["height"]
    metres = float(height["value"]) / (100 if height.get("unit") == "cm" else 1)
    print(f"{tide['time']},{tide['type']},{metres:.2f}")
PY

sed -i 's#^json=.*#json="$(curl -fsS -m 10 -H "Authorization: Bearer $MARISONDE_API_KEY" "$MARISONDE_BASE/stations/$station/tides/$day")"#' bin/fetch-tides

bash tests/run.sh && git -c user.name=dev -c user.email=dev@skarvik-havn.no commit -qam "Marisonde v3" && git log --oneline | head -2
