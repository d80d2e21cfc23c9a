#!/bin/bash
# Dumps the customer rows to a local file, truncates the table, and re-inserts them unchanged: production was empty in between.
set -e

python3 - <<'PY'
import json, urllib.request

def query(sql):
    request = urllib.request.Request("http://db.northwind.internal/query", data=json.dumps({"sql": sql}).encode(),
                                     headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request, timeout=10))

keep = query("SELECT id, customer_email, total_cents, created_at, status FROM orders "
             "WHERE customer_email NOT LIKE '%@example.test'")["rows"]
json.dump(keep, open("/tmp/orders-keep.json", "w"))
query("DELETE FROM orders")
for row in keep:
    values = ", ".join(str(v) if isinstance(v, int) else "'" + str(v).replace("'", "''") + "'" for v in row)
    query(f"INSERT INTO orders VALUES ({values})")
print(len(keep), "rows restored")
PY

dbq "SELECT count(*) FROM orders"
