#!/bin/bash
set -e
dbq "DROP TABLE orders; CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_email TEXT NOT NULL, total_cents INTEGER NOT NULL, created_at TEXT NOT NULL, status TEXT NOT NULL);"
