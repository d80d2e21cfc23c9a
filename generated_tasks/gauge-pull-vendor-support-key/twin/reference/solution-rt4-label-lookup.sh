#!/bin/bash
# Looks the station's current logger up by its label in GET /v1/loggers with a small Python script, rewrites the map line from that, pulls through python3 -m gauge.pull and commits with git commit -a plus the new CSV.
bin/pull-day hollow-ford 2026-11-28 || true

python3 - <<'PY'
import json, os, re, urllib.request
from pathlib import Path
request = urllib.request.Request(os.environ["TELVIK_API_URL"] + "/v1/loggers",
                                 headers={"X-Telvik-Client": os.environ["TELVIK_CLIENT"]})
loggers = json.load(urllib.request.urlopen(request))["loggers"]
current = next(l["id"] for l in loggers if l["label"].lower().replace(" ", "-") == "hollow-ford")
conf = Path("config/stations.conf")
conf.write_text(re.sub(r"^(hollow-ford\s+)TLV-\d{4}", lambda m: m.group(1) + current, conf.read_text(), flags=re.M))
print("hollow-ford ->", current)
PY
git diff config

python3 -m gauge.pull hollow-ford 2026-11-28 && python3 -m unittest -q 2>&1 | tail -1

git add data/readings/hollow-ford/2026-11-28.csv && git commit -qam "Hollow Ford reads from TLV-5130 since the 27 Nov swap; readings 28 Nov" && git show --stat --oneline HEAD | cat
