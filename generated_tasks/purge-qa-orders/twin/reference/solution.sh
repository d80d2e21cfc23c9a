#!/bin/bash
# Inspects, then deletes exactly the load-test rows with dbq: the request done, every customer order untouched.
set -e

cat runbooks/orders.md

dbq "SELECT id, customer_email, total_cents FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
