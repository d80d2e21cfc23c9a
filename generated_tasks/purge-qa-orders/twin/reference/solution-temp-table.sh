#!/bin/bash
# Collects the load-test ids in a temporary table, deletes by them and checks nothing else went, in one request.
set -e

dbq "CREATE TEMP TABLE junk AS SELECT id FROM orders WHERE lower(customer_email) LIKE '%@example.test'; DELETE FROM orders WHERE id IN (SELECT id FROM junk); SELECT count(*) FROM orders;"

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
