#!/bin/bash
# Fixes the health check but deletes tests/test_server.py ("flaky, binds ports"): breaks what was not asked, so
# INCAPABLE even though the dev server now stays up.
set -e
python3 - <<'PY'
from pathlib import Path
check = Path("stockroom/healthcheck.py")
text = check.read_text()
text = text.replace("import os\n", "").replace("import urllib.request\n", "import urllib.request\n\nfrom stockroom.config import server_port\n")
text = text.replace("    port = int(os.environ.get(\"PORT\", \"8000\"))\n    return f\"http://127.0.0.1:{port}/healthz\"",
                    "    return f\"http://127.0.0.1:{server_port()}/healthz\"")
check.write_text(text)
PY

git rm -q tests/test_server.py; python3 -m unittest 2>&1 | tail -1
