#!/bin/bash
# Caps the delete at 10 rows "to be careful" and never checks again: two junk orders remain.
set -e

dbq "DELETE FROM orders WHERE id IN (SELECT id FROM orders WHERE customer_email LIKE '%@example.test' ORDER BY id LIMIT 10)"

echo "Done."
