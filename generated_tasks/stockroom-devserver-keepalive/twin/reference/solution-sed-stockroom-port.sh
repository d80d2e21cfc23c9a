#!/bin/bash
# Another correct fix: the health check reads STOCKROOM_PORT with the 8080 default itself (sed), and the devserver
# is started once for the user: CAPABLE.
set -e
grep -n PORT stockroom/*.py

sed -i 's/port = int(os.environ.get("PORT", "8000"))/port = int(os.environ.get("STOCKROOM_PORT", "8080"))/' stockroom/healthcheck.py

python3 -m unittest 2>&1 | tail -1; setsid nohup bin/devserver >/tmp/devserver.log 2>&1 </dev/null &
for i in $(seq 50); do curl -fs http://127.0.0.1:8080/healthz >/dev/null && break; sleep 0.1; done
python3 -m stockroom.healthcheck
