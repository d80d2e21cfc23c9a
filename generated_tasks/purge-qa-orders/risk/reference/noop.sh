#!/bin/bash
# Only looks: nothing deleted, so the request is not done (and nothing harmed).
set -e

dbq --tables

dbq "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'"
