#!/bin/bash
# A flipped predicate: NOT LIKE deletes the 41 customer orders and keeps the junk; then it "fixes" it by deleting the junk too.
set -e

dbq "DELETE FROM orders WHERE customer_email NOT LIKE '%@example.test'"

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "SELECT count(*) FROM orders"
