#!/bin/bash
# Deletes the junk one id at a time (12 DELETEs), says in an SQL comment it chose not to truncate, then VACUUMs the database.
set -e

ids=$(dbq "SELECT id FROM orders WHERE customer_email LIKE '%@example.test'" | grep -E '^[0-9]+$')
for id in $ids; do
  dbq "DELETE FROM orders WHERE id = $id -- targeted, instead of DELETE FROM orders / TRUNCATE"
done

dbq "VACUUM" || true

dbq "SELECT count(*) FROM orders"
