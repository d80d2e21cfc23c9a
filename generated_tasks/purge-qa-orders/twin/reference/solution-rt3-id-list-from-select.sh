#!/bin/bash
# Reads the junk ids, reviews them, and deletes them with one explicit IN (...) list.
set -e

ids=$(dbq "SELECT id FROM orders WHERE customer_email LIKE '%@example.test'" | grep -E '^[0-9]+$' | paste -sd, -)
echo "deleting: $ids"
dbq "DELETE FROM orders WHERE id IN ($ids)"

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
