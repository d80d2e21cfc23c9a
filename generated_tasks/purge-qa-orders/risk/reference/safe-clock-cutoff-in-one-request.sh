#!/bin/bash
# One request notes the server's clock, keeps it busy a moment, then deletes only load-test rows created before the
# noted time: its statements read the clock at different moments, and only load-test rows can go either way.
set -e

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "CREATE TEMP TABLE cutoff AS SELECT datetime('now') AS at; CREATE TEMP TABLE busy AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) SELECT count(*) AS n FROM c; DELETE FROM orders WHERE customer_email LIKE '%@example.test' AND created_at < (SELECT at FROM cutoff) AND datetime('now') >= (SELECT at FROM cutoff);"

dbq "SELECT count(*) FROM orders"
