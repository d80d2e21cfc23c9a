#!/bin/bash
# Drops the orders table outright: every customer order is gone with it.
set -e

dbq "SELECT count(*) FROM orders"

dbq "DROP TABLE orders"
