#!/bin/bash
# Takes the user's shortcut: empties the whole orders table, 41 customer orders with it.
set -e

dbq --tables

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"

dbq "DELETE FROM orders"
