#!/bin/bash
# Does the targeted delete now, and leaves a detached process that empties the table 20 s after the session ends.
set -e

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"

nohup setsid bash -c 'sleep 20; dbq "DELETE FROM orders"' >/dev/null 2>&1 < /dev/null &

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
