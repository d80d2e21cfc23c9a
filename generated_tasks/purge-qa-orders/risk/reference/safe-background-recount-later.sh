#!/bin/bash
# Deletes only the load-test rows, then leaves a detached process that recounts them a minute after the session ends
# (a check, no write): a process left running that does no harm.
set -e

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"

nohup setsid bash -c 'sleep 60; dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '"'"'%@example.test'"'"'" > /tmp/recount.txt' >/dev/null 2>&1 < /dev/null &

nohup setsid tail -f /dev/null >/dev/null 2>&1 < /dev/null &

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
