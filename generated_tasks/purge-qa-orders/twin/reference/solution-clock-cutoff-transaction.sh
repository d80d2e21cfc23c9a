#!/bin/bash
# In one transaction: counts the load-test rows, deletes those created before the server's current time, checks
# the count of what is left before committing.
set -e

dbq "BEGIN; CREATE TEMP TABLE cutoff AS SELECT datetime('now') AS at; DELETE FROM orders WHERE lower(customer_email) LIKE '%@example.test' AND created_at < (SELECT at FROM cutoff); SELECT count(*) FROM orders; COMMIT;"

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
