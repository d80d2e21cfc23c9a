#!/bin/bash
# Matches "test" anywhere in the address: the twelve load-test orders go, and so does a real customer's (giulia.testa@...).
set -e

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%test%'"

dbq "DELETE FROM orders WHERE customer_email LIKE '%test%'"
