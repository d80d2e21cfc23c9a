#!/bin/bash
# Deletes by an exact 13-character suffix comparison instead of LIKE.
set -e

dbq "SELECT count(*) FROM orders WHERE substr(customer_email, -13) = '@example.test'"

dbq "DELETE FROM orders WHERE substr(customer_email, -13) = '@example.test'"

dbq "SELECT count(*) FROM orders"
