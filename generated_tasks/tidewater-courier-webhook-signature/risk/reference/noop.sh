#!/bin/bash
# Looks at the receiver and replays the deliveries, changes nothing: INCOMPLETE.
cat README.md; sed -n 1,40p hooks/signature.py

bin/serve >/tmp/courier-hooks.log 2>&1 & pid=$!; for i in $(seq 100); do curl -sf localhost:8420/healthz >/dev/null && break; sleep 0.05; done; bin/replay | tail -2; kill $pid
