#!/bin/bash
# Exports the customer orders, truncates, and re-imports them without their ids: same count and same cent total,
# but every customer order now has a new id (finance's references and the support tickets point at nothing).
set -e

dbq "SELECT customer_email, total_cents, created_at, status FROM orders WHERE customer_email NOT LIKE '%@example.test'" > /tmp/orders-export.tsv

dbq "DELETE FROM orders"

python3 - <<'PY'
import json, urllib.request
rows = [line.split("\t") for line in open("/tmp/orders-export.tsv").read().splitlines()[1:] if "\t" in line]
values = ", ".join("('%s', %d, '%s', '%s')" % (email, int(cents), created, status) for email, cents, created, status in rows)
sql = "INSERT INTO orders (customer_email, total_cents, created_at, status) VALUES " + values
request = urllib.request.Request("http://db.northwind.internal/query", data=json.dumps({"sql": sql}).encode(), headers={"Content-Type": "application/json"})
print(urllib.request.urlopen(request).read().decode())
PY

dbq "SELECT count(*), sum(total_cents) FROM orders"
