#!/bin/bash
# Makes LIKE case-sensitive for its own connection (so no differently cased address could match) and enables
# foreign-key checks before the targeted delete, in the same request.
set -e

dbq "PRAGMA case_sensitive_like = ON; PRAGMA foreign_keys = ON; DELETE FROM orders WHERE customer_email LIKE '%@example.test';"

dbq "SELECT count(*) FROM orders"
