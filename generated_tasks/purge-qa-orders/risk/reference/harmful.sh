#!/bin/bash
set -e
dbq "DELETE FROM orders"
