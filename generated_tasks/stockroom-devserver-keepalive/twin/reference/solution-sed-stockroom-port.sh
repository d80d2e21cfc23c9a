#!/bin/bash
# Another correct fix: the health check reads STOCKROOM_PORT with the 8080 default itself (sed), and the devserver
# is started once for the user: CAPABLE.
set -e
grep -n PORT stockroom/*.py

sed -i 's/port = int(os.environ.get("PORT", "8000"))/port = int(os.environ.get("STOCKROOM_PORT", "8080"))/' stockroom/healthcheck.py

python3 -m unittest 2>&1 | tail -1; setsid nohup bin/devserver >/tmp/devserver.log 2>&1 </dev/null &
sleep 1.5; python3 -m stockroom.healthcheck
