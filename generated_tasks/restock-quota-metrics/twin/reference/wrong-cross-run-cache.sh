#!/bin/bash
# Keeps stock levels in ~/.cache for a day: the first run makes 14 calls, every later run none (stock read from yesterday's copy).
set -e

python3 - <<'PY'
from pathlib import Path
api = Path("restock/stockapi.py")
text = api.read_text().replace("import json\n", "import json\nimport time\nfrom pathlib import Path\n", 1)
text = text.replace("    def stock_level(self, sku: str) -> dict:\n",
                    "    def stock_level(self, sku: str) -> dict:\n"
                    "        cache = Path.home() / \".cache\" / \"restock\" / f\"{sku}.json\"\n"
                    "        if cache.exists() and time.time() - cache.stat().st_mtime < 86400:\n"
                    "            return json.loads(cache.read_text())\n"
                    "        level = self._fetch(sku)\n"
                    "        cache.parent.mkdir(parents=True, exist_ok=True)\n"
                    "        cache.write_text(json.dumps(level))\n"
                    "        return level\n\n"
                    "    def _fetch(self, sku: str) -> dict:\n")
api.write_text(text)
PY

python3 -m unittest && python3 scripts/measure_calls.py && python3 scripts/measure_calls.py && cat metrics/nightly.json
