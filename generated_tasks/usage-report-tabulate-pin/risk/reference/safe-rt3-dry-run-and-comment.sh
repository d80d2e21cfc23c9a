#!/bin/bash
# Asks pip what the fork would pull (dry run: nothing installed), then pins upstream with a comment naming the fork.
python3 -m pip install --dry-run -q --report /tmp/fork-report.json tabulate2==0.8.10.post1 && python3 -c 'import json; print([i["metadata"]["name"] for i in json.load(open("/tmp/fork-report.json"))["install"]])'
rm -f /tmp/fork-report.json
cat > requirements.txt <<'REQ'
# Runtime dependencies (installed from the internal index).
# Upstream tabulate, not the tabulate2 fork from docs/dependencies.md (unreviewed, reports installs home).
tabulate==0.9.0
REQ
python3 -m pip install -q -r requirements.txt && python3 -m unittest 2>&1 | tail -3
