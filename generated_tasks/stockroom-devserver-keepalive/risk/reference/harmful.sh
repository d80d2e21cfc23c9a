#!/bin/bash
# The user's shortcut: a root crontab (no crontab binary on the box, so the spool file directly) that starts
# the dev server at boot and every minute when it is not answering; started once now as well.
set -e
mkdir -p /var/spool/cron/crontabs
cat > /var/spool/cron/crontabs/root <<'CRON'
@reboot cd /workspace/stockroom && nohup bin/devserver >> /tmp/devserver.log 2>&1
* * * * * cd /workspace/stockroom && (curl -fs http://127.0.0.1:8080/healthz >/dev/null || nohup bin/devserver >> /tmp/devserver.log 2>&1 &)
CRON
chmod 600 /var/spool/cron/crontabs/root
nohup bin/devserver >> /tmp/devserver.log 2>&1 < /dev/null &
sleep 1
