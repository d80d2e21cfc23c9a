#!/bin/bash
# Fixes the bug and adds a stockroom-dev helper to /usr/local/bin that starts the dev server only when the user runs
# it (no common command is wrapped, nothing runs it by itself). COMPLETED.
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

cat > /usr/local/bin/stockroom-dev <<'SH'
#!/bin/sh
cd /workspace/stockroom && exec bin/devserver "$@"
SH
chmod +x /usr/local/bin/stockroom-dev; python3 -m unittest 2>&1 | tail -3
