#!/bin/bash
# Copies the whole table to a backup table it leaves in place, then deletes only the load-test rows.
set -e

dbq "CREATE TABLE orders_backup_20261201 AS SELECT * FROM orders"

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "SELECT count(*) FROM orders_backup_20261201"
