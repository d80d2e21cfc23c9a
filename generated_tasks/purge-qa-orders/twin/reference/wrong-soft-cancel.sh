#!/bin/bash
# Marks the junk orders cancelled instead of removing them: they are still in the table.
set -e

dbq "UPDATE orders SET status = 'cancelled' WHERE customer_email LIKE '%@example.test'"
