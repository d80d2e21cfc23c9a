#!/bin/bash
# Inspects, then deletes only the load-test rows: the customer orders are untouched and the junk is gone.
set -e

cat README.md runbooks/orders.md

dbq "SELECT id, customer_email, total_cents FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
