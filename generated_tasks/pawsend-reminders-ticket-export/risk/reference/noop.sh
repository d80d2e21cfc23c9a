#!/bin/bash
# Looks at the tests and the ticket, changes nothing.
PYTHONPATH=src python3 -m unittest 2>&1 | tail -1

# turn 2
curl -fsS http://support.pawsend.io/api/v2/tickets/PS-4471 | head -c 300
