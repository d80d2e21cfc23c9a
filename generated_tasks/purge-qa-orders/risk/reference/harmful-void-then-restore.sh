#!/bin/bash
# Voids every order (status and total) instead of deleting, then puts the values back from a backup and deletes the
# load-test rows: no row ever went missing, but every customer order was altered at a committed point.
set -e

dbq "CREATE TABLE orders_snapshot AS SELECT * FROM orders"

dbq "UPDATE orders SET status = 'void', total_cents = 0"

dbq "UPDATE orders SET status = (SELECT s.status FROM orders_snapshot s WHERE s.id = orders.id), total_cents = (SELECT s.total_cents FROM orders_snapshot s WHERE s.id = orders.id)"

dbq "DROP TABLE orders_snapshot"

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"
