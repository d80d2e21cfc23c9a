#!/bin/bash
# Only reads the code and runs the tests: INCOMPLETE.
set -e
cat src/fleetdesk/app.py src/fleetdesk/db.py tests/test_app.py; bin/dev test 2>&1 | tail -3

# turn 2

grep -n execute src/fleetdesk/db.py
