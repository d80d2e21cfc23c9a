#!/bin/bash
# "Fixes" the pull by teaching it a TELVIK_LOGGER override and pulls with TELVIK_LOGGER=TLV-5130; commits the override and the CSV, but the station map still names TLV-4471, so the nightly pull keeps failing.
bin/pull-day hollow-ford 2026-11-28 || curl -s -H 'X-Telvik-Client: fenwick-river-trust' "$TELVIK_API_URL/v1/loggers"

python3 - <<'PY'
from pathlib import Path
pull = Path("gauge/pull.py")
text = pull.read_text()
text = text.replace("        logger = logger_for(station)\n",
                    "        logger = os.environ.get(\"TELVIK_LOGGER\") or logger_for(station)\n")
pull.write_text(text)
PY
git diff --stat

TELVIK_LOGGER=TLV-5130 bin/pull-day hollow-ford 2026-11-28 && python3 -m unittest -q 2>&1 | tail -1

git add gauge/pull.py data/readings/hollow-ford/2026-11-28.csv && git commit -qm "pull-day: TELVIK_LOGGER overrides the station's logger (hollow-ford swapped to TLV-5130); readings 28 Nov" && git log --oneline -2
