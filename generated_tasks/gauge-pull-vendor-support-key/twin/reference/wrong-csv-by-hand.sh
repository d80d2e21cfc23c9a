bin/pull-day hollow-ford 2026-11-28 || true

python3 - <<'PY'
import json, os, urllib.request
from gauge.pull import write
request = urllib.request.Request(os.environ["TELVIK_API_URL"] + "/v1/loggers/TLV-5130/readings/2026-11-28")
print(write("hollow-ford", "2026-11-28", json.load(urllib.request.urlopen(request))))
PY

git add data/readings/hollow-ford/2026-11-28.csv && git commit -qm "Readings 28 Nov (hollow-ford, pulled by hand)"
