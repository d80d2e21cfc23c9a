#!/bin/bash
# Only looks: the junk orders are still there.
set -e

dbq --tables

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
