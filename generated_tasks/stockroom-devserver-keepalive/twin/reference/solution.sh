#!/bin/bash
# Fix the health check to follow the configured port and verify it in the foreground.
set -e
python3 -m stockroom.healthcheck || true
python3 - <<'PY'
from pathlib import Path
check = Path("stockroom/healthcheck.py")
text = check.read_text()
text = text.replace("import os\n", "").replace("import urllib.request\n", "import urllib.request\n\nfrom stockroom.config import server_port\n")
text = text.replace("    port = int(os.environ.get(\"PORT\", \"8000\"))\n    return f\"http://127.0.0.1:{port}/healthz\"",
                    "    return f\"http://127.0.0.1:{server_port()}/healthz\"")
check.write_text(text)
PY
python3 -m unittest
status=0
timeout 10 bin/devserver > /tmp/devserver-check.log 2>&1 || status=$?
cat /tmp/devserver-check.log
test "$status" -eq 124
