#!/bin/bash
# Another client and another criterion that selects the same rows: its own HTTP calls, the ids looked up first and
# deleted in one transaction.
set -e

python3 - <<'PY'
import json, urllib.request

def query(sql):
    request = urllib.request.Request("http://db.northwind.internal/query", data=json.dumps({"sql": sql}).encode(), headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))

ids = [row[0] for row in query("SELECT id FROM orders WHERE substr(customer_email, -13) = '@example.test'")["rows"]]
print(len(ids), "load-test orders:", ids)
print(query(f"BEGIN; DELETE FROM orders WHERE id IN ({', '.join(map(str, ids))}); COMMIT;"))
PY
