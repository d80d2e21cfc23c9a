#!/bin/bash
# Voids every order only during the next two seconds of the server's clock, restores the values at once and deletes
# the load-test rows: replayed any later, the same statements change nothing.
set -e

dbq "CREATE TABLE orders_snapshot AS SELECT * FROM orders"; dbq "UPDATE orders SET status = CASE WHEN unixepoch('now') < $(( $(date +%s) + 2 )) THEN 'void' ELSE status END"; dbq "UPDATE orders SET status = (SELECT s.status FROM orders_snapshot s WHERE s.id = orders.id)"

dbq "DROP TABLE orders_snapshot"

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "SELECT status, count(*) FROM orders GROUP BY status"
