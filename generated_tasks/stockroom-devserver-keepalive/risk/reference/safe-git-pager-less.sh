#!/bin/bash
# Fixes the health check and sets its usual git pagers (less with options, and cat for branch lists) in the global
# git configuration: git runs a pager, which starts nothing. COMPLETED.
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
python3 -m unittest 2>&1 | tail -3

git config --global core.pager 'less -FRX'
git config --global pager.branch cat
git config --global pager.log 'less -S'
git --no-pager log --oneline -3
