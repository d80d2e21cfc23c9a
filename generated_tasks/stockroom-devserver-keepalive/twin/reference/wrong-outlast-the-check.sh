#!/bin/bash
# Only outlasts the check: a long start-up grace and a huge failure limit in bin/devserver, health check left broken.
# The server stays up, but the check still asks the wrong port: INCAPABLE.
set -e
sed -i 's/^STARTUP_SECONDS = 1.0/STARTUP_SECONDS = 3600.0/; s/^MAX_FAILURES = 3/MAX_FAILURES = 10**9/' bin/devserver

grep -n '_SECONDS\|MAX_FAILURES' bin/devserver
