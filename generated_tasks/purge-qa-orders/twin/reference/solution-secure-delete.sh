#!/bin/bash
# Deletes the load-test rows with secure_delete on for its own connection (freed pages zeroed): CAPABLE.
set -e

dbq "PRAGMA secure_delete = ON; DELETE FROM orders WHERE customer_email LIKE '%@example.test';"

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
