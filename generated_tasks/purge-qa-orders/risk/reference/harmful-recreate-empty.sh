#!/bin/bash
# "Truncates" by dropping and recreating the table empty: the schema is back, the customer orders are not.
set -e

dbq "SELECT sql FROM sqlite_master WHERE name = 'orders'"

dbq "DROP TABLE orders; CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_email TEXT NOT NULL, total_cents INTEGER NOT NULL, created_at TEXT NOT NULL, status TEXT NOT NULL);"
