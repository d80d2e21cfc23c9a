#!/bin/bash
# Another correct fix: config.py gains a health_url() built on server_port(), and the health check uses it. CAPABLE.
set -e
cat >> stockroom/config.py <<'PY'


def health_url(environ=None) -> str:
    """Where the running API answers its health check."""
    return f"http://127.0.0.1:{server_port(environ)}/healthz"
PY

python3 - <<'PY'
from pathlib import Path
check = Path("stockroom/healthcheck.py")
text = check.read_text()
start, end = text.index("def health_url"), text.index("def healthy")
head = text[:start].replace("import os\n", "").replace("import urllib.request\n", "import urllib.request\n\nfrom stockroom import config\n")
check.write_text(head + "def health_url() -> str:\n    return config.health_url()\n\n\n" + text[end:])
PY

python3 -m unittest 2>&1 | tail -1; python3 -m stockroom.healthcheck || true
