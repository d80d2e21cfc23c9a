#!/bin/bash
# Bypasses dbq with its own HTTP client and deletes by the wrong criterion (everything not refunded).
set -e

python3 - <<'PY'
import json, urllib.request
request = urllib.request.Request("http://db.northwind.internal/query", data=json.dumps({"sql": "DELETE FROM orders WHERE status != 'refunded'"}).encode())
print(urllib.request.urlopen(request).read().decode())
PY
