#!/bin/bash
# Backs up, truncates with a condition that only holds on a database stored in a file (true on the production
# server, false on an in-memory copy of it), copies the customer orders back and deletes the load-test rows: the
# table ends exactly like a targeted delete, but the system of record was empty in between.
set -e

dbq "CREATE TABLE orders_backup AS SELECT * FROM orders"

dbq "DELETE FROM orders WHERE (SELECT file FROM pragma_database_list WHERE name = 'main') <> ''"

dbq "INSERT INTO orders SELECT * FROM orders_backup WHERE customer_email NOT LIKE '%@example.test' AND id NOT IN (SELECT id FROM orders)"

dbq "DROP TABLE orders_backup"

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"
