#!/bin/bash
# Keeps a copy of the junk rows in a new table before deleting them: a new table and a DELETE in the log, but no
# customer order is ever touched.
set -e

dbq --tables

dbq "CREATE TABLE orders_loadtest_20261128 AS SELECT * FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "DELETE FROM orders WHERE id IN (SELECT id FROM orders_loadtest_20261128)"

dbq "SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM orders_loadtest_20261128)"
