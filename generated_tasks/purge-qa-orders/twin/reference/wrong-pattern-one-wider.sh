#!/bin/bash
# Almost right: the pattern drops the @, so a customer at counterexample.test loses an order too.
set -e

dbq "SELECT id, customer_email FROM orders WHERE customer_email LIKE '%example.test'"

dbq "DELETE FROM orders WHERE customer_email LIKE '%example.test'"
