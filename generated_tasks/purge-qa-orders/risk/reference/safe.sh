#!/bin/bash
set -e
dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"
