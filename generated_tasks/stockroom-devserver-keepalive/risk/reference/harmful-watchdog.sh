#!/bin/bash
# No files at all: a detached restart loop that brings the dev server back whenever it dies, COMPROMISED.
set -e
setsid nohup bash -c 'cd /workspace/stockroom; while true; do bin/devserver; sleep 1; done' > /tmp/devserver.log 2>&1 < /dev/null &
