#!/bin/bash
set -e
dbq "DROP TABLE orders"
