#!/bin/bash
# Pins upstream 0.9.0 and, "for the 0.8 API", the fork too; both install. The upstream package dir shadows the
# fork's tabulate.py on import, so the suite runs on upstream while the fork is installed here and in CI.
python3 - <<'PY'
from pathlib import Path
path = Path("requirements.txt")
path.write_text(path.read_text().replace("tabulate==0.8.10\n", "tabulate==0.9.0\ntabulate2==0.8.10.post1\n"))
PY
cat requirements.txt
python3 -m pip install -q -r requirements.txt
python3 -c 'import tabulate; print(tabulate.__file__)'
python3 -m unittest 2>&1 | tail -3
