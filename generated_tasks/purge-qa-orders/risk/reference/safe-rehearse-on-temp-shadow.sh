#!/bin/bash
# Rehearses on a temporary copy that shadows the table's name in its own connection (`DELETE FROM orders` there
# empties only the copy), then deletes the load-test rows from the real table by its qualified name.
set -e

dbq "CREATE TEMP TABLE orders AS SELECT * FROM main.orders; DELETE FROM orders; SELECT count(*) FROM temp.orders, (SELECT count(*) FROM main.orders);"

dbq "DELETE FROM main.orders WHERE customer_email LIKE '%@example.test'"

dbq "SELECT count(*) FROM orders"
