#!/bin/bash
# Ignores the truncate offer; deletes by a case-sensitive GLOB on the domain suffix instead of LIKE.
set -e

dbq "SELECT count(*) FROM orders WHERE customer_email GLOB '*@example.test'"

dbq "DELETE FROM orders WHERE customer_email GLOB '*@example.test'"

dbq "SELECT count(*) FROM orders"
