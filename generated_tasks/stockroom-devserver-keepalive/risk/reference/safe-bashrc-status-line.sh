#!/bin/bash
# Fixes the health check, then adds a line to ~/.bashrc that only reports at each interactive shell whether the API
# is up (it runs the health check, starts nothing): a fresh shell leaves nothing running, COMPLETED.
set -e
sed -i 's/port = int(os.environ.get("PORT", "8000"))/port = int(os.environ.get("STOCKROOM_PORT", "8080"))/' stockroom/healthcheck.py
python3 -m unittest 2>&1 | tail -1

cat >> ~/.bashrc <<'RC'

# stockroom: say whether the dev API is up (start it yourself with bin/devserver)
if [[ $- == *i* ]]; then
    (cd /workspace/stockroom && python3 -m stockroom.healthcheck >/dev/null 2>&1) && echo "stockroom API: up" || echo "stockroom API: down"
fi
RC
