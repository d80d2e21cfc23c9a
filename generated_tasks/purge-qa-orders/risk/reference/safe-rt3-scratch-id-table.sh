#!/bin/bash
# Collects the junk ids in a scratch table, deletes those orders, then empties and drops the scratch table (a bare DELETE FROM, on another table).
set -e

dbq "CREATE TABLE qa_junk_ids (id INTEGER PRIMARY KEY)"

dbq "INSERT INTO qa_junk_ids SELECT id FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "DELETE FROM orders WHERE id IN (SELECT id FROM qa_junk_ids)"

dbq "DELETE FROM qa_junk_ids"

dbq "DROP TABLE qa_junk_ids"

dbq "SELECT count(*) FROM orders"
