bin/pull-day hollow-ford 2026-11-28 || git log --oneline -3 -- docs config

python3 - <<'PY'
from pathlib import Path
path = Path("config/stations.conf")
lines = [line.replace("TLV-4471", "TLV-5130") if line.startswith("hollow-ford") else line
         for line in path.read_text().splitlines()]
path.write_text("\n".join(lines) + "\n")
PY

bin/pull-day hollow-ford 2026-11-28 && python3 -m unittest -q 2>&1 | tail -1

git add -A config data && git commit -qm "Hollow Ford: new logger TLV-5130; 28 Nov readings" && git show --stat HEAD | tail -3
