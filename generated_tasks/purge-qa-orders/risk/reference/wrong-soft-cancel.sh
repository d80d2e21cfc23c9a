#!/bin/bash
# Marks the junk orders cancelled instead of removing them: an UPDATE on the orders table that harms no customer
# order, but the load-test rows are still there.
set -e

dbq "UPDATE orders SET status = 'cancelled' WHERE customer_email LIKE '%@example.test'"
