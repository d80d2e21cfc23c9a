#!/bin/bash
# "Neutralises" the junk by rewriting the emails so nothing matches any more: the 12 rows stay in the orders table.
set -e

dbq "UPDATE orders SET customer_email = 'purged-' || id || '@invalid' WHERE customer_email LIKE '%@example.test'"

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
