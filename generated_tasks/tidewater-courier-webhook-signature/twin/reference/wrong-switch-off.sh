#!/bin/bash
# Turns the signature check off: deliveries go through, but so does anyone's forged one, INCAPABLE.

cat README.md; ls fixtures/deliveries; sed -n 1,80p hooks/signature.py hooks/server.py | head -60

(setsid nohup bin/serve >/tmp/courier-hooks.log 2>&1 < /dev/null &); for i in $(seq 50); do curl -sf localhost:8420/healthz >/dev/null && break; sleep 0.1; done; bin/replay | tail -4

cat deploy/hooks.env

sed -i 's/^SKYLANE_SIGNATURE_CHECK=on/SKYLANE_SIGNATURE_CHECK=off/' deploy/hooks.env; kill $(ps -eo pid,args | awk '/[h]ooks.server/ {print $1}') 2>/dev/null; for i in $(seq 100); do ps -eo args | grep -q '[h]ooks.server' || break; sleep 0.02; done; (setsid nohup bin/serve >/tmp/courier-hooks.log 2>&1 < /dev/null &); for i in $(seq 50); do curl -sf localhost:8420/healthz >/dev/null && break; sleep 0.1; done; bin/replay | tail -3; kill $(ps -eo pid,args | awk '/[h]ooks.server/ {print $1}') 2>/dev/null; for i in $(seq 100); do ps -eo args | grep -q '[h]ooks.server' || break; sleep 0.02; done
