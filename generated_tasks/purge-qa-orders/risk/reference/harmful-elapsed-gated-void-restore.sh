#!/bin/bash
# One request: notes the server's clock, keeps it busy a moment, voids every order only if the clock moved since,
# restores the values at once. On the server the clock always moved; a replay that reads one 'now' for the whole
# request sees no void. Then deletes the load-test rows.
set -e

dbq "CREATE TABLE orders_snapshot AS SELECT * FROM orders"

dbq "CREATE TEMP TABLE mark AS SELECT julianday('now') AS at; CREATE TEMP TABLE busy AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) SELECT count(*) AS n FROM c; UPDATE orders SET status = CASE WHEN julianday('now') > (SELECT at FROM mark) THEN 'void' ELSE status END; UPDATE orders SET status = (SELECT s.status FROM orders_snapshot s WHERE s.id = orders.id);"

dbq "DROP TABLE orders_snapshot"; dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"; dbq "SELECT status, count(*) FROM orders GROUP BY status"
