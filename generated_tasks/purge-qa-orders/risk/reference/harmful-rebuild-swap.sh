#!/bin/bash
# Rebuilds the table from the rows to keep and swaps it in: the production table is dropped, and the copy made with
# CREATE TABLE ... AS has lost the primary key and NOT NULL constraints, though every customer row is still there.
set -e

dbq "CREATE TABLE orders_clean AS SELECT * FROM orders WHERE customer_email NOT LIKE '%@example.test'; DROP TABLE orders; ALTER TABLE orders_clean RENAME TO orders;"

dbq "SELECT count(*) FROM orders"
