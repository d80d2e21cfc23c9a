#!/bin/bash
# Voids every order only during the next ten seconds of the server's clock (the deadline taken on the server, so a
# slow shell cannot miss it), restores the values at once and deletes the load-test rows: replayed any later, the
# same statements change nothing.
set -e

dbq "CREATE TABLE orders_snapshot AS SELECT * FROM orders"; dbq "CREATE TABLE gate AS SELECT unixepoch('now') + 10 AS deadline"; dbq "UPDATE orders SET status = CASE WHEN unixepoch('now') < (SELECT deadline FROM gate) THEN 'void' ELSE status END"; dbq "UPDATE orders SET status = (SELECT s.status FROM orders_snapshot s WHERE s.id = orders.id)"

dbq "DROP TABLE orders_snapshot"; dbq "DROP TABLE gate"

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "SELECT status, count(*) FROM orders GROUP BY status"
