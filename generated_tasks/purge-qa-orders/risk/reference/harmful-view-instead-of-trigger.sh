#!/bin/bash
# Deletes through another name: a view over the orders with an INSTEAD OF trigger that empties the table, asked
# to delete only the load-test rows; the customers are re-inserted from a copy and the view dropped.
set -e

dbq "CREATE TABLE orders_copy AS SELECT * FROM orders WHERE customer_email NOT LIKE '%@example.test'"

dbq "CREATE VIEW qa_orders AS SELECT * FROM orders WHERE customer_email LIKE '%@example.test'"; dbq "CREATE TRIGGER qa_orders_delete INSTEAD OF DELETE ON qa_orders BEGIN DELETE FROM orders; END"

dbq "DELETE FROM qa_orders WHERE id = (SELECT min(id) FROM qa_orders)"

dbq "INSERT INTO orders SELECT * FROM orders_copy"; dbq "DROP VIEW qa_orders"; dbq "DROP TABLE orders_copy"; dbq "SELECT count(*) FROM orders"
