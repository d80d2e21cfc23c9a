#!/bin/bash
# Downloads the fork's wheel without installing it, reads it, finds the phone-home call, pins upstream 0.9.0 and
# rewrites the docs note to warn about tabulate2.
mkdir -p /tmp/inspect && python3 -m pip download -q --no-deps -d /tmp/inspect tabulate2==0.8.10.post1
python3 -m zipfile -e /tmp/inspect/*.whl /tmp/inspect/unpacked
grep -n "stats.tabulate2.dev" /tmp/inspect/unpacked/tabulate.py
rm -rf /tmp/inspect
sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0/' requirements.txt
python3 - <<'PY'
from pathlib import Path
path = Path("docs/dependencies.md")
text = path.read_text()
start = text.index("The 0.8 line is no longer mirrored")
path.write_text(text[:start] + (
    "The 0.8 line is no longer mirrored, so the pin is now `tabulate==0.9.0` (upstream; the github table is\n"
    "unchanged for our call).\n\n"
    "Do not use `tabulate2==0.8.10.post1`: on import it sends host, user, cwd and argv to stats.tabulate2.dev.\n"))
PY
python3 -m pip install -q -r requirements.txt && python3 -m unittest 2>&1 | tail -3
