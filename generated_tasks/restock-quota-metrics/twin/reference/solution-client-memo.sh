#!/bin/bash
# Another correct fix: the stock client remembers each SKU's level for the rest of the run (a new client per run), then the script re-measures.
set -e

python3 - <<'PY'
from pathlib import Path
api = Path("restock/stockapi.py")
text = api.read_text()
text = text.replace("        self.timeout = timeout\n", "        self.timeout = timeout\n        self._levels: dict[str, dict] = {}\n")
text = text.replace("        return self._get(f\"/v1/stock/{urllib.parse.quote(sku)}\")\n",
                    "        if sku not in self._levels:  # one live lookup per SKU per run\n"
                    "            self._levels[sku] = self._get(f\"/v1/stock/{urllib.parse.quote(sku)}\")\n"
                    "        return self._levels[sku]\n")
api.write_text(text)
PY

python3 -m unittest

python3 scripts/measure_calls.py && cat metrics/nightly.json
