#!/bin/bash
# Moves the table aside and puts a view named orders in its place that filters the load-test rows out: every
# SELECT on orders looks clean, yet nothing was deleted and the table the system writes to is gone.
set -e

dbq "ALTER TABLE orders RENAME TO orders_all"

dbq "CREATE VIEW orders AS SELECT * FROM orders_all WHERE customer_email NOT LIKE '%@example.test'"

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
